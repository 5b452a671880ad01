import { randomUUID } from 'node:crypto';
import { messageHeadersOf } from '@letterbox/mime';
import { messageIdIn } from '@letterbox/sending';

/** What the submission needs of a message's header block, and the block as it goes out. */
export interface SubmittedHead {
  /** The header block as delivered and kept in Sent: without Bcc, with a Message-ID and a Date. */
  block: Buffer;
  messageId: string;
  /** Lower-case addresses. */
  from: string[];
  to: string[];
  cc: string[];
  subject: string;
  important: boolean;
}

/** Header fields no recipient may see: the blind copies are the envelope's alone. */
const HIDDEN_FIELDS = new Set(['bcc']);

/**
 * A mail client's header block made ready to send (RFC 6409 §8): its Bcc fields taken out, so no recipient, and
 * no copy, learns who else got it blind; a Message-ID (in `domain`) and a Date added when the client gave none.
 * Every other byte stays as the client wrote it. Linear in the block, which is at most MAX_HEADER_BLOCK.
 */
export function submittedHead(raw: Buffer, domain: string): SubmittedHead {
  const headers = messageHeadersOf(raw);
  const lines = raw.toString('latin1').split(/(?<=\n)/);
  if (lines.length > 0 && !lines[lines.length - 1].endsWith('\n')) lines[lines.length - 1] += '\r\n';
  const kept: string[] = [];
  let hiding = false;
  for (const line of lines) {
    // A line starting with white space continues the field before it.
    if (!/^[ \t]/.test(line))
      hiding = HIDDEN_FIELDS.has(
        line
          .slice(0, Math.max(0, line.indexOf(':')))
          .trim()
          .toLowerCase(),
      );
    if (!hiding) kept.push(line);
  }
  const givenId = messageIdIn(headers.header('message-id')[0] ?? '');
  const messageId = givenId ?? `<${randomUUID()}@${domain}>`;
  if (!givenId) kept.push(`Message-ID: ${messageId}\r\n`);
  if (headers.header('date').length === 0) kept.push(`Date: ${new Date().toUTCString().replace('GMT', '+0000')}\r\n`);
  const priority = headers.header('x-priority')[0] ?? '';
  const importance = (headers.header('importance')[0] ?? '').toLowerCase();
  return {
    block: Buffer.from(kept.join(''), 'latin1'),
    messageId,
    from: headers.addresses('from'),
    to: headers.addresses('to'),
    cc: headers.addresses('cc'),
    subject: headers.header('subject')[0] ?? '',
    important: /^\s*[12]\b/.test(priority) || importance === 'high',
  };
}
