import type { SmtpOutcome } from './smtp-outcome';

export type AccountCounts = Record<SmtpOutcome, number>;

const noCounts = (): AccountCounts => ({ accepted: 0, rateLimited: 0, tempFailed: 0, permFailed: 0, dropped: 0 });

/** Outcomes per account. Unlike the kept mails these are never trimmed, so totals stay right in long runs. */
export class AccountCounters {
  private readonly byAccount = new Map<string, AccountCounts>();

  add(account: string, outcome: SmtpOutcome): void {
    let counts = this.byAccount.get(account);
    if (!counts) this.byAccount.set(account, (counts = noCounts()));
    counts[outcome] += 1;
  }

  snapshot(): Record<string, AccountCounts> {
    return Object.fromEntries([...this.byAccount].map(([account, counts]) => [account, { ...counts }]));
  }

  clear(): void {
    this.byAccount.clear();
  }
}
