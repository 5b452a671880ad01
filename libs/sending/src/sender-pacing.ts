import { setTimeout as sleep } from 'node:timers/promises';
import { DelayedError, type Job } from 'bullmq';
import type { SenderRateLimit } from '@letterbox/queue';

/** One message's slot at the provider, reserved: `reached()` resolves when the message may leave. */
export interface ReservedSlot {
  reached(): Promise<void>;
}

/**
 * Paces a sender's messages so that each reaches the provider at its slot, not at some
 * varying delay after it: the caller reserves the slot, prepares the message (database
 * writes, which queue behind other deliveries), and only then waits for the slot and
 * sends. The limit's lead puts every slot far enough ahead for that preparation; where it
 * was not (a stalled process, a slow database), the departure gate keeps the messages
 * behind a late one from following it too closely.
 *
 * A slot further off than twice the lead frees the job's place in the worker: the job is
 * delayed, holding the slot (tokenDueAt), until a lead before it, so that BullMQ's
 * re-queueing and the next run's reads are done by then too.
 */
export class SenderPacing {
  constructor(private readonly limit: SenderRateLimit) {}

  async reserve(sender: string, job: Job, token: string): Promise<ReservedSlot> {
    const held = (job.data as { tokenDueAt?: number }).tokenDueAt;
    if (held !== undefined) {
      await job.updateData({ ...job.data, tokenDueAt: undefined });
      // Asked when the message is ready, on the clock that gave the slot: another process may have reserved it.
      return { reached: async () => this.departAfter(sender, await this.limit.untilDue(sender, held)) };
    }
    const slot = await this.limit.reserve(sender);
    if (slot.waitMs <= 2 * this.limit.leadMs) {
      const dueHere = performance.now() + slot.waitMs;
      return { reached: () => this.departAfter(sender, dueHere - performance.now()) };
    }
    await job.updateData({ ...job.data, tokenDueAt: slot.dueAt });
    await job.moveToDelayed(Date.now() + slot.waitMs - this.limit.leadMs, token);
    throw new DelayedError(`sender ${sender} is over its rate limit`);
  }

  /** Waits for the slot, then for the departure gate, which holds it back only when a message before it left late. */
  private async departAfter(sender: string, untilSlotMs: number): Promise<void> {
    if (untilSlotMs > 0) await sleep(untilSlotMs);
    const held = await this.limit.depart(sender);
    if (held > 0) await sleep(held);
  }
}
