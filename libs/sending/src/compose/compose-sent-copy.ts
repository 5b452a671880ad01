import MailComposer from 'nodemailer/lib/mail-composer';
import { prepareMail, prepareStoredMail, type PreparedMail } from '@letterbox/mail';
import type { BlobStore } from '@letterbox/storage';
import type { Sender, SendRequest } from '../submit/send-request';
import { sentCopyOptions, type MessageIdentity } from './compose-message';

/**
 * The sender's own copy of a message (a Sent copy, a draft), composed and put in storage:
 * small messages in memory with one write; with attachments, streamed. A message a mail client submitted is its
 * own copy, stored already.
 */
export async function composeSentCopy(blobs: BlobStore, sender: Sender, request: SendRequest, identity: MessageIdentity): Promise<PreparedMail> {
  if (request.submitted) return prepareStoredMail(blobs, { key: request.submitted.storageKey, size: request.submitted.size });
  const message = new MailComposer(sentCopyOptions(blobs, sender, request, identity)).compile();
  // The sender's own copy shows whom they Bcc'd; delivered messages never do.
  message.keepBcc = true;
  return prepareMail(blobs, request.attachments.length === 0 ? await message.build() : message.createReadStream());
}
