import { z } from 'zod';
import { storableText } from '@letterbox/mail';
import { ANSWER_MODES } from '@letterbox/sending';

export const MAX_RECIPIENTS = 100;
const MAX_BODY_CHARS = 1_000_000;
const MAX_SCHEDULE_DAYS = 30;

/** Recipients given as a JSON array, repeated form fields, or one comma-separated field. */
export const addressList = z.preprocess(
  (value) => {
    if (value === undefined) return [];
    const values = Array.isArray(value) ? value : [value];
    return values.flatMap((entry) =>
      typeof entry === 'string'
        ? entry
            .split(/[,;]/)
            .map((part) => part.trim())
            .filter(Boolean)
        : [entry],
    );
  },
  z.array(z.email('must be an email address').max(320)).max(MAX_RECIPIENTS, `at most ${MAX_RECIPIENTS} addresses`),
);

/** A boolean from JSON, or a form field's "true"/"false"/"1"/"0". */
export const flag = (fallback: boolean) =>
  z
    .preprocess((value) => {
      if (typeof value !== 'string') return value;
      if (value === 'true' || value === '1') return true;
      if (value === 'false' || value === '0') return false;
      return value;
    }, z.boolean('must be true or false'))
    .default(fallback);

export const originalMailId = z.coerce.number('must be a mail id').int('must be a mail id').positive('must be a mail id').max(Number.MAX_SAFE_INTEGER);
export const answerMode = z.enum(ANSWER_MODES, { message: 'must be reply, replyAll or forward' });

/**
 * Text that is stored as sent: PostgreSQL's text cannot hold NUL nor its JSON a lone UTF-16
 * surrogate, and either would fail the send (a 500) instead of telling the client.
 */
const storable = (text: z.ZodString) => text.refine((value) => storableText(value) === value, 'must not contain NUL characters or lone UTF-16 surrogates');

export const subjectField = storable(z.string().max(998, 'at most 998 characters'));
export const bodyField = storable(z.string().max(MAX_BODY_CHARS));

/** One of the sender's own addresses, their primary or an alias; any other is a 403. */
export const fromAddress = z
  .email('must be an email address')
  .max(320)
  .describe('The address to send from: your primary address (the default) or one of your aliases.');

export const sendRequestBody = z
  .object({
    from: fromAddress.optional(),
    to: addressList,
    cc: addressList,
    bcc: addressList,
    subject: subjectField.default(''),
    text: bodyField.optional(),
    html: bodyField.optional(),
    important: flag(false),
    saveCopy: flag(true),
    sendSeparately: flag(false),
    requestReadReceipt: flag(false),
    sendAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
    /** The id of the mail this send answers or forwards. */
    original: originalMailId.optional(),
    mode: answerMode.optional(),
  })
  .strict()
  .superRefine((body, context) => {
    const recipients = body.to.length + body.cc.length + body.bcc.length;
    // A reply's recipients come from its original when none are given.
    const answersSomeone = body.original !== undefined && body.mode !== 'forward';
    if (recipients === 0 && !answersSomeone) context.addIssue({ code: 'custom', path: ['to'], message: 'give at least one recipient in to, cc or bcc' });
    if (body.mode !== undefined && body.original === undefined) {
      context.addIssue({ code: 'custom', path: ['original'], message: 'give the id of the mail to reply to or forward' });
    }
    if (recipients > MAX_RECIPIENTS) context.addIssue({ code: 'custom', path: ['to'], message: `at most ${MAX_RECIPIENTS} recipients in all` });
    if (body.requestReadReceipt && !body.saveCopy) {
      context.addIssue({ code: 'custom', path: ['requestReadReceipt'], message: 'read receipts are shown on the Sent copy: keep saveCopy true' });
    }
    if (body.sendAt) {
      const delay = new Date(body.sendAt).getTime() - Date.now();
      if (delay > MAX_SCHEDULE_DAYS * 86_400_000) context.addIssue({ code: 'custom', path: ['sendAt'], message: `at most ${MAX_SCHEDULE_DAYS} days ahead` });
    }
  });

export type SendRequestBody = z.infer<typeof sendRequestBody>;

export const idempotencyKeyHeader = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, 'must be 1 to 200 visible ASCII characters')
  .optional();
