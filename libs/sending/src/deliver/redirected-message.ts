import { Readable } from 'node:stream';
import type { BlobStore } from '@letterbox/storage';
import type { RedirectedMessage } from '../submit/send-request';

/** A redirected message as it goes out: its trace header, then the stored message, byte for byte, streamed. */
export function redirectedMessage(blobs: BlobStore, redirect: RedirectedMessage): Readable {
  return Readable.from(traced(redirect.trace, blobs.createReadStream(redirect.storageKey)));
}

async function* traced(trace: string, message: Readable): AsyncGenerator<Buffer> {
  yield Buffer.from(trace);
  yield* message;
}
