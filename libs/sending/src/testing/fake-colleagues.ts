import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { Colleagues } from '../deliver/send-delivery';

/** Letterbox's incoming mail for its own users, in the process: it keeps each message handed to it. */
export class FakeColleagues implements Colleagues {
  readonly delivered: Array<{ recipients: string[]; raw: string }> = [];

  /** `users`: the addresses of Letterbox's own users; `full`: those of them whose mailbox is full. */
  constructor(
    private readonly users: string[],
    private readonly full: string[] = [],
  ) {}

  async colleaguesAmong(addresses: string[]): Promise<Set<string>> {
    return new Set(addresses.filter((address) => this.users.includes(address)));
  }

  async deliver(message: Readable, recipients: string[]): Promise<{ refusedForGood?: string }> {
    const raw = await text(message);
    if (recipients.every((recipient) => this.full.includes(recipient))) return { refusedForGood: `552 5.2.2 full: ${recipients.join(', ')}` };
    this.delivered.push({ recipients, raw });
    return {};
  }
}
