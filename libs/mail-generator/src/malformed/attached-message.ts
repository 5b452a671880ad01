import { commonHeaders, crlfLines } from './message-lines';

/** A forwarded mail attached whole, its own headers and multipart body inside the outer one. */
export function attachedMessage(): string {
  return crlfLines(
    ...commonHeaders('Fwd: =?UTF-8?B?7ZqM7J2YIOydvOyglQ==?=', 'forward'),
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="outer"',
    '',
    '--outer',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'Forwarding the message below.',
    '--outer',
    'Content-Type: message/rfc822',
    'Content-Disposition: attachment; filename="original.eml"',
    '',
    'From: =?UTF-8?B?6rmA66+87KSA?= <minjun@hanbit-soft.example>',
    'To: Broken Sender <sender@broken.example>',
    'Subject: =?UTF-8?B?7ZqM7J2YIOydvOyglQ==?=',
    'Date: Fri, 27 Feb 2026 08:15:00 +0900',
    'Message-ID: <original@hanbit-soft.example>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="inner"',
    '',
    '--inner',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    '회의는 다음 주 화요일 오후 2시입니다.',
    '--inner',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    '<p>회의는 다음 주 <b>화요일 오후 2시</b>입니다.</p>',
    '--inner--',
    '--outer--',
  );
}
