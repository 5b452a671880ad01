import { BadRequestException, HttpException, PayloadTooLargeException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { SendAttachment } from '@letterbox/sending';
import { SourceEndedEarlyError, type BlobStore } from '@letterbox/storage';
import { PartCounter, boundaryOf } from './multipart-part-counter';

export interface SendForm {
  fields: Record<string, unknown>;
  attachments: SendAttachment[];
}

/** RFC 6838 type and subtype names: what a MIME header can carry unquoted. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const CONTROL_CHARACTERS = /\p{Cc}/gu;

const refused = (message: string) => new BadRequestException({ detail: `attachments: ${message}`, errors: [{ field: 'attachments', message }] });

/**
 * The fields and files of a send: a JSON body, or multipart/form-data whose files stream
 * straight into blob storage (none is held in memory) within `maxAttachmentBytes` in all.
 * A malformed form is the client's to fix (400); only storage failures are ours.
 */
export async function readSendForm(request: FastifyRequest, blobs: BlobStore, maxAttachmentBytes: number): Promise<SendForm> {
  if (!request.isMultipart()) return { fields: (request.body ?? {}) as Record<string, unknown>, attachments: [] };
  const boundary = boundaryOf(request.headers['content-type'] ?? '');
  if (!boundary) throw refused('multipart/form-data needs a boundary parameter of 1 to 70 characters');
  const counter = new PartCounter(boundary);
  // Beside the multipart reader's pipe: both are attached before the body flows (on the next tick).
  request.raw.on('data', counter.feed);
  try {
    const form = await readMultipart(request, blobs, maxAttachmentBytes);
    // The multipart reader skips, without a word, a part whose name or filename holds a line break (such as a
    // decoded RFC 2231 filename*): refused here rather than sent without the file the user attached.
    if (!counter.closed) throw refused('the form ends before its closing boundary');
    if (form.parts < counter.parts)
      throw refused(`${counter.parts - form.parts} part(s) could not be read: a name or filename holds a line break, or the part is not form-data`);
    return form;
  } catch (error) {
    throw asClientError(error);
  } finally {
    request.raw.off('data', counter.feed);
  }
}

/** The multipart reader's errors (limits, malformed or truncated forms) are the client's; storage errors stay ours. */
function asClientError(error: unknown): unknown {
  if (error instanceof SourceEndedEarlyError) return refused('the form ends inside a file');
  if (error instanceof HttpException || !(error instanceof Error)) return error;
  const status = (error as { statusCode?: number }).statusCode;
  if (status !== undefined && status < 500)
    return new HttpException({ detail: `attachments: ${error.message}`, errors: [{ field: 'attachments', message: error.message }] }, status);
  if (status === undefined && isFormError(error)) return refused(error.message);
  return error;
}

/** Busboy's own errors for a form that does not parse: they carry no status, only these messages. */
function isFormError(error: Error): boolean {
  return /^(Unexpected end of (form|multipart data)|Malformed part header|Part terminated early|Multipart: )/i.test(error.message);
}

async function readMultipart(request: FastifyRequest, blobs: BlobStore, maxAttachmentBytes: number): Promise<SendForm & { parts: number }> {
  const fields: Record<string, unknown> = {};
  const attachments: SendAttachment[] = [];
  let total = 0;
  let parts = 0;
  for await (const part of request.parts({ limits: { fileSize: maxAttachmentBytes } })) {
    parts++;
    if (part.type === 'field') {
      const previous = fields[part.fieldname];
      fields[part.fieldname] = previous === undefined ? part.value : [previous, part.value].flat();
      continue;
    }
    const contentType = part.mimetype || 'application/octet-stream';
    if (!MEDIA_TYPE.test(contentType)) {
      // Read to its end, so the form goes on to parse and the reply is not left waiting on an unread body.
      part.file.resume();
      throw refused(`${JSON.stringify(part.filename ?? part.fieldname)} has the content type ${JSON.stringify(contentType)}, which is not type/subtype`);
    }
    const stored = await blobs.put(part.file);
    total += stored.size;
    if (total > maxAttachmentBytes)
      throw new PayloadTooLargeException({
        detail: `attachments: more than ${maxAttachmentBytes} bytes in all`,
        errors: [{ field: 'attachments', message: `more than ${maxAttachmentBytes} bytes in all` }],
      });
    attachments.push({ filename: safeFilename(part.filename), contentType, storageKey: stored.key, size: stored.size });
  }
  return { fields, attachments, parts };
}

/** The name a file is sent under: no control characters (busboy already keeps only the last path segment). */
function safeFilename(filename: string | undefined): string {
  const clean = (filename ?? '').replace(CONTROL_CHARACTERS, '').trim().slice(0, 255);
  return clean === '' || clean === '.' || clean === '..' ? 'attachment' : clean;
}
