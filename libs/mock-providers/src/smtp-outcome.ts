import type { SmtpBehaviour } from './smtp-behaviour';

/** What becomes of a mail once its DATA is in; each is also a counter per account. */
export type SmtpOutcome = 'accepted' | 'rateLimited' | 'tempFailed' | 'permFailed' | 'dropped';

type FailureRates = Pick<SmtpBehaviour, 'tempFailRate' | 'permFailRate' | 'dropRate'>;

/**
 * Rolls for the injected failures, in the order temporary, permanent, dropped. One roll
 * serves all three, so each rate is exactly its share of all mails; when the rates add up
 * to more than 1, the later ones get what is left.
 */
export function rollInjectedFailure(rates: FailureRates, roll = Math.random()): SmtpOutcome {
  if (roll < rates.tempFailRate) return 'tempFailed';
  if (roll < rates.tempFailRate + rates.permFailRate) return 'permFailed';
  if (roll < rates.tempFailRate + rates.permFailRate + rates.dropRate) return 'dropped';
  return 'accepted';
}
