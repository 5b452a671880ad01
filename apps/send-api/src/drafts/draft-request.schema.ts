import { z } from 'zod';
import { integerParam } from '@letterbox/http';
import { addressList, answerMode, bodyField, flag, fromAddress, originalMailId, subjectField } from '../sends/send-request.schema';

/** Every field may be left out: a draft is what the user has typed so far. */
const draftFields = {
  from: fromAddress.optional(),
  to: addressList.optional(),
  cc: addressList.optional(),
  bcc: addressList.optional(),
  subject: subjectField.optional(),
  text: bodyField.optional(),
  html: bodyField.optional(),
  important: flag(false).optional(),
  requestReadReceipt: flag(false).optional(),
};

export const draftCreateBody = z
  .object({ ...draftFields, original: originalMailId.optional(), mode: answerMode.optional() })
  .strict()
  .refine((body) => body.mode === undefined || body.original !== undefined, { path: ['original'], message: 'give the id of the mail to reply to or forward' });

/** A save: the fields given replace the draft's; `removeAttachments` lists attachment ids to drop; `version` unless If-Match says it. */
export const draftUpdateBody = z
  .object({
    ...draftFields,
    removeAttachments: z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(z.string().max(64)).max(20)).optional(),
    version: z.coerce.number().int().positive().optional(),
  })
  .strict();

export const draftSendBody = z
  .object({
    version: z.coerce.number().int().positive().optional(),
    /** When to send, as POST /v2/mails/send takes it: a short delay is what makes undo possible. */
    sendAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
  })
  .strict();

export const draftIdParams = z.object({ id: integerParam(1, Number.MAX_SAFE_INTEGER) });

/** `If-Match: "7"`, the ETag a draft was read with. */
export const ifMatchHeader = z
  .string()
  .regex(/^(W\/)?"\d{1,9}"$/, 'must be the ETag the draft was read with, such as "3"')
  .transform((value) => Number(value.replace(/^(W\/)?"|"$/g, '')))
  .optional();
