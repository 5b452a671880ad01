import { z } from 'zod';
import { FCM_ERROR_CODES } from './fcm-errors';

const share = z.number().min(0).max(1);
const token = z.string().min(1).max(4096);

/** Everything the mock FCM does that a test or a benchmark may change while it runs. */
export const fcmBehaviourSchema = z.object({
  /** Delay before each answer; FCM's HTTP v1 API takes tens of milliseconds per message. */
  latencyMs: z.number().int().min(0).max(600_000),
  /** Share of messages answered 503 UNAVAILABLE. */
  unavailableRate: share,
  /** Share of messages answered 429 QUOTA_EXCEEDED. */
  quotaExceededRate: share,
  /** Share of messages answered 500 INTERNAL. */
  internalRate: share,
  /** Tokens answered 404 UNREGISTERED every time, besides every token starting with `dead-`. */
  unregisteredTokens: z.array(token).max(1_000_000),
  /**
   * The next answers to a token, one used up per message to it, before any other rule:
   * `{ "tok": ["UNAVAILABLE", "QUOTA_EXCEEDED"] }` fails its next two messages.
   */
  failNext: z.record(token, z.array(z.enum(FCM_ERROR_CODES)).max(1000)),
  /** How many of the latest accepted messages are kept for inspection. */
  keepMessages: z.number().int().min(0).max(1_000_000),
});

export type FcmBehaviour = z.infer<typeof fcmBehaviourSchema>;

/** A change to some of the settings; an unknown name is refused rather than silently ignored. */
export const fcmBehaviourPatchSchema = fcmBehaviourSchema.partial().strict();

export type FcmBehaviourPatch = z.infer<typeof fcmBehaviourPatchSchema>;

export const DEFAULT_FCM_BEHAVIOUR: FcmBehaviour = {
  latencyMs: 50,
  unavailableRate: 0,
  quotaExceededRate: 0,
  internalRate: 0,
  unregisteredTokens: [],
  failNext: {},
  keepMessages: 10_000,
};

/** Tokens with these prefixes get FCM's answers for a dead token without any setting. */
export const UNREGISTERED_PREFIX = 'dead-';
export const INVALID_PREFIX = 'invalid-';
