/**
 * The burst the worker allows a sender: the provider's, less what the lag allowance takes.
 * A provider's token bucket tolerates mails up to (burst − 1) intervals early; the worker
 * spends only what is left once mails that the varying delay to the provider bunches
 * together are provided for, and never less than one mail (strict spacing).
 */
export function workerBurst(ratePerSecond: number, providerBurst: number, lagAllowanceMs: number): number {
  return Math.max(1, providerBurst - (lagAllowanceMs * ratePerSecond) / 1000);
}
