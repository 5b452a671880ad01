import { Readable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import type { AttachmentLayout, BodyPartLayout, ScannedLayout } from '../layout';
import { scanLayout } from '../scan-layout';
import { createTransferDecoder } from '../transfer-encoding';

/** Shared by the mime tests; not part of the library's API. */

export function compose(options: Mail.Options): Promise<Buffer> {
  return new MailComposer(options).compile().build();
}

/** A hand-written EML: lines joined with CRLF (or `eol`). */
export function eml(lines: string[], eol = '\r\n'): Buffer {
  return Buffer.from(lines.join(eol));
}

export function slice(message: Buffer, range: { start: number; end: number }): Buffer {
  return message.subarray(range.start, range.end);
}

/** Cuts a buffer into pieces of the given sizes, cycling through them. */
export function chunks(buffer: Buffer, sizes: number[]): Buffer[] {
  const pieces: Buffer[] = [];
  for (let offset = 0, index = 0; offset < buffer.length; index++) {
    const size = Math.max(1, sizes[index % sizes.length]);
    pieces.push(buffer.subarray(offset, offset + size));
    offset += size;
  }
  return pieces;
}

export function scanChunks(pieces: Buffer[]): Promise<ScannedLayout> {
  return scanLayout(Readable.from(pieces));
}

/** Runs a part's bytes through the download decoder, fed in small odd-sized chunks. */
export async function decodePart(message: Buffer, part: { start: number; end: number; encoding: string }): Promise<Buffer> {
  const decoder = Readable.from(chunks(slice(message, part), [7, 1, 64, 3])).pipe(createTransferDecoder(part.encoding));
  const out: Buffer[] = [];
  for await (const piece of decoder) out.push(piece as Buffer);
  return Buffer.concat(out);
}

/** Deterministic bytes covering every byte value, cheap to make. */
export function pattern(length: number, seed = 0): Buffer {
  const bytes = Buffer.alloc(length);
  for (let index = 0; index < length; index++) bytes[index] = (index * 7 + (index >> 8) + seed) & 0xff;
  return bytes;
}

export function attachmentById(layout: ScannedLayout, partId: string): AttachmentLayout {
  const part = layout.attachments.find((attachment) => attachment.partId === partId);
  if (!part) throw new Error(`no attachment ${partId} in ${JSON.stringify(layout.attachments.map((a) => a.partId))}`);
  return part;
}

export function bodyById(layout: ScannedLayout, partId: string): BodyPartLayout {
  const part = layout.bodies.find((body) => body.partId === partId);
  if (!part) throw new Error(`no body ${partId} in ${JSON.stringify(layout.bodies.map((b) => b.partId))}`);
  return part;
}

/** A small pseudo-random generator, so failures reproduce. */
export function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
}
