import { HttpException, PayloadTooLargeException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { SendAttachment } from '@letterbox/sending';
import type { BlobStore } from '@letterbox/storage';

export interface SendForm {
  fields: Record<string, unknown>;
  attachments: SendAttachment[];
}

/**
 * The fields and files of a send: a JSON body, or multipart/form-data whose files stream
 * straight into blob storage (none is held in memory) within `maxAttachmentBytes` in all.
 */
export async function readSendForm(request: FastifyRequest, blobs: BlobStore, maxAttachmentBytes: number): Promise<SendForm> {
  if (!request.isMultipart()) return { fields: (request.body ?? {}) as Record<string, unknown>, attachments: [] };
  try {
    return await readMultipart(request, blobs, maxAttachmentBytes);
  } catch (error) {
    // The multipart reader's own limits (file size, part counts) are the client's to fix.
    const status = (error as { statusCode?: number }).statusCode;
    if (error instanceof HttpException || !status || status >= 500) throw error;
    const message = (error as Error).message;
    throw new HttpException({ detail: `attachments: ${message}`, errors: [{ field: 'attachments', message }] }, status);
  }
}

async function readMultipart(request: FastifyRequest, blobs: BlobStore, maxAttachmentBytes: number): Promise<SendForm> {
  const fields: Record<string, unknown> = {};
  const attachments: SendAttachment[] = [];
  let total = 0;
  for await (const part of request.parts({ limits: { fileSize: maxAttachmentBytes } })) {
    if (part.type === 'field') {
      const previous = fields[part.fieldname];
      fields[part.fieldname] = previous === undefined ? part.value : [previous, part.value].flat();
      continue;
    }
    const stored = await blobs.put(part.file);
    total += stored.size;
    if (total > maxAttachmentBytes) {
      throw new PayloadTooLargeException({ detail: `attachments: more than ${maxAttachmentBytes} bytes in all`, errors: [{ field: 'attachments', message: `more than ${maxAttachmentBytes} bytes in all` }] });
    }
    attachments.push({ filename: part.filename || 'attachment', contentType: part.mimetype || 'application/octet-stream', storageKey: stored.key, size: stored.size });
  }
  return { fields, attachments };
}
