/**
 * Small newsletter-like messages for the ingest scenarios (about 2.5 KB: a text and an
 * HTML alternative, list headers), each with its own Message-ID so none is a duplicate.
 */

const LINES = [
  'This week at the Letterbox garden club: the spring seed swap, a talk on composting',
  'and the results of the tomato contest. Members bring their own jars; labels are free.',
  'The committee thanks everyone who helped repaint the shed on Saturday morning.',
  'Next meeting: Thursday 7 pm, room 2. Coffee and biscuits as usual.',
];

export const INBOUND_PATH = '/v2/inbound';

/** The path of one intake request for one recipient. */
export const inboundPath = (recipient: string) => `${INBOUND_PATH}?to=${encodeURIComponent(recipient)}`;

/** A unique newsletter issue to `recipient` from `from`; `messageId` without the angle brackets, or none. */
export function newsletterMessage(
  recipient: string,
  messageId: string | undefined,
  issue: number,
  from = '"Garden Club News" <news@news.example.org>',
): string {
  const boundary = `=_bench_${issue}_alt`;
  const text = Array.from({ length: 3 }, (_, round) => LINES.map((line) => `${line} (${issue}.${round})`).join('\r\n')).join('\r\n\r\n');
  const html = `<html><body><h1>Garden club news #${issue}</h1>${LINES.map((line) => `<p>${line}</p>`).join('')}<p><a href="https://news.example.org/unsubscribe?i=${issue}">Unsubscribe</a></p></body></html>`;
  return [
    `From: ${from}`,
    `To: ${recipient}`,
    `Subject: Garden club news #${issue}`,
    `Date: ${new Date().toUTCString().replace('GMT', '+0000')}`,
    ...(messageId === undefined ? [] : [`Message-ID: <${messageId}>`]),
    'MIME-Version: 1.0',
    'List-Id: Garden club news <news.news.example.org>',
    '<https://news.example.org/unsubscribe>'.replace(/^/, 'List-Unsubscribe: '),
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    text,
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    html,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
