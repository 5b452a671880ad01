import { prepareMail, prepareStoredMail, type PreparedMail } from '@letterbox/mail';
import type { InboundMessageJob } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import type { IntakeSpool } from './intake-spool';

/**
 * The bytes of the accepted messages the intake spooled (disk storage), each spool file
 * read once: undefined for a message the intake put into blob storage itself, or whose
 * spool file was swept (once none of its acceptances was pending, so it is in blob
 * storage already).
 */
export async function readSpooled(messages: InboundMessageJob[], spool: IntakeSpool | undefined): Promise<Array<Buffer | Error | undefined>> {
  const bytes: Array<Buffer | Error | undefined> = messages.map(() => undefined);
  const spooled = messages.flatMap((message, index) => (message.spooled ? [{ index, place: message.spooled, size: message.size }] : []));
  if (spooled.length === 0) return bytes;
  const read = spool
    ? await spool.readAll(spooled)
    : spooled.map(({ index }) => new Error(`${messages[index].inboundId} was spooled on disk, and this worker has no spool (STORAGE_BACKEND is not disk)`));
  spooled.forEach(({ index }, position) => (bytes[index] = read[position]));
  return bytes;
}

/**
 * An accepted message made ready to be stored as mail, under the blob key it was accepted
 * with. Spooled bytes are put into blob storage first (durably, before any mail refers to
 * them; again on every attempt, which is harmless) and described from memory while they
 * are written; any other message is read from blob storage.
 */
export async function prepareAccepted(message: InboundMessageJob, spooled: Buffer | Error | undefined, blobs: BlobStore): Promise<PreparedMail> {
  if (spooled instanceof Error) throw spooled;
  if (!spooled) return prepareStoredMail(blobs, { key: message.storageKey, size: message.size });
  const key = blobs.keyOf(spooled);
  if (key !== message.storageKey) throw new Error(`${message.inboundId}: its spooled bytes are ${key}, not ${message.storageKey}`);
  return prepareMail(blobs, spooled);
}
