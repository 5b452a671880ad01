import type { Pool } from 'pg';
import type { MailboxView, MailSummary } from '@letterbox/mail';
import { BENCH_PASSWORD } from '../data/bench-accounts';
import { loadBenchReceipts, type BenchReceipt } from '../data/bench-receipts';
import type { ServerKey } from '../scenarios/scenario';
import type { ApiClient } from './api-client';

export type ReferenceSize = 'small' | 'medium' | 'large';

/** Sign-in is deliberately slow (a password hash), so many users' tokens are fetched a few at a time. */
const LOGIN_CONCURRENCY = 4;

/** The sizes of the demo office's reference mails (libs/mail-generator's referenceMail). */
export const REFERENCE_BYTES: Record<ReferenceSize, number> = { small: 4 * 1024, medium: 712 * 1024, large: 22 * 1024 * 1024 };
export const SIZE_TOLERANCE = 0.1;

/**
 * What scenarios need before they load a server: tokens (one sign-in per user and run,
 * as sign-in is deliberately slow), the ids of the reference mails, the bench receipts.
 * All are looked up outside the measured load, through the API where it can tell and
 * through SQL where it cannot.
 */
export class BenchFixtures {
  private readonly tokens = new Map<string, Promise<string>>();

  constructor(
    readonly api: ApiClient,
    readonly sql: Pool,
    readonly sendApi: ApiClient,
  ) {}

  apiFor(server: ServerKey): ApiClient {
    return server === 'send' ? this.sendApi : this.api;
  }

  token(email: string): Promise<string> {
    if (!this.tokens.has(email)) this.tokens.set(email, this.api.login(email, BENCH_PASSWORD));
    return this.tokens.get(email) as Promise<string>;
  }

  /** The tokens of many users, in their order. */
  async tokensOf(emails: string[]): Promise<string[]> {
    const tokens: string[] = [];
    for (let start = 0; start < emails.length; start += LOGIN_CONCURRENCY) {
      tokens.push(...(await Promise.all(emails.slice(start, start + LOGIN_CONCURRENCY).map((email) => this.token(email)))));
    }
    return tokens;
  }

  /** The ids of users, in their order; fails naming those that do not exist. */
  async userIdsOf(emails: string[]): Promise<number[]> {
    const { rows } = await this.sql.query<{ id: number; email: string }>('SELECT id, email FROM users WHERE email = ANY($1)', [emails]);
    const byEmail = new Map(rows.map((row) => [row.email, row.id]));
    const missing = emails.filter((email) => !byEmail.has(email));
    if (missing.length > 0) throw new Error(`no user ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ' ...' : ''}; run bench/prepare.ts first`);
    return emails.map((email) => byEmail.get(email) as number);
  }

  async authorization(email: string): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.token(email)}` };
  }

  /** The inbox mail of about the reference size, which the demo office gives every user. */
  async referenceMailId(email: string, size: ReferenceSize): Promise<number> {
    const token = await this.token(email);
    const { items: mailboxes } = await this.api.getJson<{ items: MailboxView[] }>('/v2/mailboxes', token);
    const inbox = mailboxes.find((mailbox) => mailbox.role === 'inbox');
    if (!inbox) throw new Error(`${email} has no inbox`);
    const { items } = await this.api.getJson<{ items: MailSummary[] }>(`/v2/mails?mailboxId=${inbox.id}&limit=100`, token);
    const wanted = REFERENCE_BYTES[size];
    const closest = items.reduce<MailSummary | undefined>(
      (best, mail) => (!best || Math.abs(mail.size - wanted) < Math.abs(best.size - wanted) ? mail : best),
      undefined,
    );
    if (!closest || Math.abs(closest.size - wanted) > wanted * SIZE_TOLERANCE) {
      throw new Error(`${email}'s inbox has no ${size} reference mail of about ${wanted} bytes; seed the demo office (bench/prepare.ts)`);
    }
    return closest.id;
  }

  async benchReceipts(): Promise<BenchReceipt[]> {
    const receipts = await loadBenchReceipts(this.sql);
    if (receipts.length === 0) throw new Error('no bench read receipts in the database; run bench/prepare.ts first');
    return receipts;
  }
}
