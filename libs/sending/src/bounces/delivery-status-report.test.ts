import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BOUNCE_READ_BYTES, readBounceReport } from './delivery-status-report';

function dsn(recipientBlocks: string[], options: { lf?: boolean } = {}): Buffer {
  const lines = [
    'From: MAILER-DAEMON@mx.example',
    'Content-Type: multipart/report; report-type=delivery-status;',
    '\tboundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    'Could not deliver.',
    '--b1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example',
    '',
    recipientBlocks.join('\r\n\r\n'),
    '',
    '--b1--',
  ];
  return Buffer.from(lines.join(options.lf ? '\n' : '\r\n'));
}

describe('reading a bounce', () => {
  test("a DSN's recipient blocks: Final-Recipient without its type, lower-case; Action; Status; Diagnostic-Code without its type, folded lines joined", () => {
    const report = readBounceReport(
      dsn([
        'Final-Recipient: rfc822; Carol@Exmaple.com\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 user\r\n unknown',
        'Original-Recipient: rfc822;dave@example.net\r\nAction: delayed\r\nStatus: 4.4.1 (timeout)',
      ]),
    );
    assert.deepEqual(report, {
      kind: 'dsn',
      recipients: [
        { recipient: 'carol@exmaple.com', action: 'failed', status: '5.1.1', diagnostic: '550 5.1.1 user unknown' },
        { recipient: 'dave@example.net', action: 'delayed', status: '4.4.1', diagnostic: '4.4.1' },
      ],
    });
  });

  test('bare LF line ends read the same', () => {
    const report = readBounceReport(dsn(['Final-Recipient: rfc822; carol@example.com\nAction: failed\nStatus: 5.1.1'], { lf: true }));
    assert.deepEqual(report, { kind: 'dsn', recipients: [{ recipient: 'carol@example.com', action: 'failed', status: '5.1.1', diagnostic: '5.1.1' }] });
  });

  test('a block without a recipient, an action or a well-formed status is skipped', () => {
    const report = readBounceReport(
      dsn([
        'Action: failed\r\nStatus: 5.1.1',
        'Final-Recipient: rfc822; a@example.com\r\nStatus: 5.1.1',
        'Final-Recipient: rfc822; b@example.com\r\nAction: failed\r\nStatus: five',
      ]),
    );
    assert.deepEqual(report, { kind: 'dsn', recipients: [] });
  });

  test('a bounce that is no DSN is plain text, cut to a few kilobytes', () => {
    const report = readBounceReport(Buffer.from(`Subject: failure\r\n\r\n550 5.1.1 <carol@example.com>: no such user\r\n${'x'.repeat(100_000)}`));
    assert.equal(report.kind, 'plain');
    assert.ok(report.kind === 'plain' && report.text.startsWith('550 5.1.1') && report.text.length <= 4000);
  });

  test('only the first BOUNCE_READ_BYTES are read: a report past them is not found', () => {
    const padding = `--b1\r\nContent-Type: text/plain\r\n\r\n${'y'.repeat(BOUNCE_READ_BYTES)}\r\n`;
    const bytes = Buffer.from(
      `Content-Type: multipart/report; boundary=b1\r\n\r\n${padding}--b1\r\nContent-Type: message/delivery-status\r\n\r\nX: y\r\n\r\nFinal-Recipient: rfc822; a@example.com\r\nAction: failed\r\nStatus: 5.1.1\r\n--b1--\r\n`,
    );
    assert.equal(readBounceReport(bytes).kind, 'plain');
  });

  test('hostile input (thousands of parts, endless folded lines, no blank lines) is read in one pass and is no report', () => {
    const parts = `Content-Type: multipart/report; boundary=b\r\n\r\n${'--b\r\nContent-Type: text/plain\r\n\r\nz\r\n'.repeat(5000)}`;
    const folded = `Content-Type: multipart/report; boundary=b\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nA: b\r\n\r\nFinal-Recipient: x${'\r\n '.repeat(20_000)}`;
    for (const input of [parts, folded, ':'.repeat(BOUNCE_READ_BYTES), '\r\n'.repeat(BOUNCE_READ_BYTES)]) {
      const report = readBounceReport(Buffer.from(input));
      assert.ok(report.kind === 'plain' || report.recipients.length === 0);
    }
  });
});
