import { z } from 'zod';

const share = z.number().min(0).max(1);

/** Everything the mock SMTP provider does that a test or a benchmark may change while it runs. */
export const smtpBehaviourSchema = z.object({
  /** Delay before the reply to the end of DATA; the provider we imitate takes about 4 s to accept a mail. */
  latencyMs: z.number().int().min(0).max(600_000),
  /** Tokens an account gets back per second. */
  ratePerSecond: z.number().min(0),
  /** Tokens an account can save up, so the most mails it can send at once. */
  burst: z.number().int().min(1),
  /** Share of mails answered 451, as a temporary failure. */
  tempFailRate: share,
  /** Share of mails answered 550, as a permanent rejection. */
  permFailRate: share,
  /** Share of mails whose connection is cut at the end of DATA, with no reply at all. */
  dropRate: share,
  maxMessageBytes: z.number().int().min(1),
  /** False makes the provider refuse every session with 421, as one that is down does. */
  accepting: z.boolean(),
  /** Recipients refused for good at RCPT TO (550 5.1.1), as a provider does an address that does not exist. */
  refusedRecipients: z.array(z.string()).max(10_000),
  /** How many of the latest accepted mails are kept for inspection. */
  keepMessages: z.number().int().min(0).max(1_000_000),
  /**
   * Letterbox's SMTP intake, where the DSN for mail to `@bounce.example` goes (to the mail's
   * envelope sender, once it has been accepted); none: such mail is accepted and not bounced.
   */
  bounceIntake: z.object({ host: z.string().min(1), port: z.number().int().min(1).max(65535) }).nullable(),
});

export type SmtpBehaviour = z.infer<typeof smtpBehaviourSchema>;

/** A change to some of the settings; an unknown name is refused rather than silently ignored. */
export const smtpBehaviourPatchSchema = smtpBehaviourSchema.partial().strict();

export type SmtpBehaviourPatch = z.infer<typeof smtpBehaviourPatchSchema>;

export const DEFAULT_SMTP_BEHAVIOUR: SmtpBehaviour = {
  latencyMs: 4000,
  ratePerSecond: 5,
  burst: 5,
  tempFailRate: 0,
  permFailRate: 0,
  dropRate: 0,
  maxMessageBytes: 30 * 1024 * 1024,
  accepting: true,
  refusedRecipients: [],
  keepMessages: 10_000,
  bounceIntake: null,
};
