import { INVALID_PREFIX, UNREGISTERED_PREFIX, type FcmBehaviour } from './fcm-behaviour';
import type { FcmErrorCode } from './fcm-errors';

/** What becomes of one message: accepted, or one of FCM's errors. */
export type FcmOutcome = 'accepted' | FcmErrorCode;

type FailureRates = Pick<FcmBehaviour, 'unavailableRate' | 'quotaExceededRate' | 'internalRate'>;

/**
 * The answer for a token that no script or setting singles out: one roll serves the three
 * rates, so each is exactly its share of all messages; past a total of 1 the later ones
 * get what is left.
 */
export function rollFcmFailure(rates: FailureRates, roll = Math.random()): FcmOutcome {
  if (roll < rates.unavailableRate) return 'UNAVAILABLE';
  if (roll < rates.unavailableRate + rates.quotaExceededRate) return 'QUOTA_EXCEEDED';
  if (roll < rates.unavailableRate + rates.quotaExceededRate + rates.internalRate) return 'INTERNAL';
  return 'accepted';
}

/** A token's own rules, before any rate: its scripted next answer, then whether it is dead. */
export function tokenOutcome(token: string, scripted: FcmErrorCode | undefined, unregistered: ReadonlySet<string>): FcmOutcome | undefined {
  if (scripted) return scripted;
  if (token.startsWith(UNREGISTERED_PREFIX) || unregistered.has(token)) return 'UNREGISTERED';
  if (token.startsWith(INVALID_PREFIX)) return 'INVALID_ARGUMENT';
  return undefined;
}
