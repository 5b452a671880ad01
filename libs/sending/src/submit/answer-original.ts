import type { MailQueries, MailRecord } from '@letterbox/mail';
import { MAX_REFERENCES, parseAddresses, parseHeaderBlock, summarizeHeaders } from '@letterbox/mime';
import type { BlobStore } from '@letterbox/storage';
import type { SignedInSender } from '../sender-directory';
import type { AnsweredMail, AnswerMode, SendAttachment } from './send-request';

/** What answering or forwarding a mail puts in a send where the user left it out. */
export interface Answer {
  answering: AnsweredMail;
  subject: string;
  to: string[];
  cc: string[];
  /** A forward's: the original's attachments and inline images, by reference. */
  attachments: SendAttachment[];
}

const PREFIX: Record<AnswerMode, string> = { reply: 'Re:', replyAll: 'Re:', forward: 'Fwd:' };
const ALREADY_PREFIXED: Record<AnswerMode, RegExp> = { reply: /^\s*re\s*:/i, replyAll: /^\s*re\s*:/i, forward: /^\s*fwd?\s*:/i };

/**
 * Reads the mail being answered: one of the user's own (another user's or a missing one
 * is MailNotFoundError, one in a locked mailbox MailboxLockedError) and its header block,
 * a small ranged read. A reply goes to Reply-To, else From, or, answering the user's own
 * mail, to its recipients; reply all adds the original's To and Cc, less the user (any of
 * their addresses, aliases too).
 */
export async function answerOf(mails: MailQueries, blobs: BlobStore, sender: SignedInSender, mailId: number, mode: AnswerMode): Promise<Answer> {
  const original = await mails.record(sender.userId, mailId);
  const [headerBlock] = await blobs.readRanges(original.storageKey, [{ start: 0, end: original.layout.headerEnd }]);
  const headers = parseHeaderBlock(headerBlock, original.layout.bodies[0]?.charset);
  const summary = summarizeHeaders(headers);
  const earlier = summary.references.length > 0 ? summary.references : summary.inReplyTo ? [summary.inReplyTo] : [];
  const subject = ALREADY_PREFIXED[mode].test(original.subject) ? original.subject : `${PREFIX[mode]} ${original.subject}`.trimEnd();
  const answering: AnsweredMail = { mailId, mode, messageId: original.messageId, references: [...earlier, original.messageId].slice(-MAX_REFERENCES) };
  if (mode === 'forward') return { answering, subject, to: [], cc: [], attachments: forwardedParts(original) };

  const own = sender.addresses;
  const replyTo = parseAddresses(headers.filter((header) => header.name.toLowerCase() === 'reply-to').map((header) => header.value));
  const author = (replyTo.length > 0 ? replyTo : [original.from]).map((address) => address.address.toLowerCase());
  const fromSelf = author.every((address) => own.includes(address));
  const to = fromSelf ? original.to.map((address) => address.address.toLowerCase()) : author;
  if (mode === 'reply') return { answering, subject, to: distinct(to, own), cc: [], attachments: [] };
  const allTo = distinct([...to, ...original.to.map((address) => address.address.toLowerCase())], own);
  const cc = distinct(
    original.cc.map((address) => address.address.toLowerCase()),
    [...own, ...allTo],
  );
  return { answering, subject, to: allTo, cc, attachments: [] };
}

/** A mail's attachments and inline images as a send takes them: by reference to the stored message, nothing copied. */
export function forwardedParts(original: MailRecord): SendAttachment[] {
  return original.attachments.map((part) => ({
    filename: part.filename,
    contentType: part.contentType,
    storageKey: original.storageKey,
    size: part.size,
    part: { start: part.bodyStart, end: part.bodyEnd, encoding: part.encoding },
    ...(part.contentId ? { contentId: part.contentId } : {}),
    ...(part.disposition === 'inline' ? { inline: true } : {}),
  }));
}

function distinct(addresses: string[], excluded: string[]): string[] {
  return [...new Set(addresses)].filter((address) => address !== '' && !excluded.includes(address));
}
