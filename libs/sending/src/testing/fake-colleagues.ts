import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { Colleagues } from '../deliver/send-delivery';

/** Letterbox's incoming mail for its own users, in the process: it keeps each message handed to it. */
export class FakeColleagues implements Colleagues {
  readonly delivered: Array<{ recipients: string[]; raw: string }> = [];

  /** `users`: the addresses of Letterbox's own users. */
  constructor(private readonly users: string[]) {}

  async colleaguesAmong(addresses: string[]): Promise<Set<string>> {
    return new Set(addresses.filter((address) => this.users.includes(address)));
  }

  async deliver(message: Readable, recipients: string[]): Promise<void> {
    this.delivered.push({ recipients, raw: await text(message) });
  }
}
