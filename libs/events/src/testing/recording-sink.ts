import type { UserEventSink } from '../event-follower';
import type { MailEvent } from '../mail-events';

/** A sink that keeps what it is told, for tests to wait on. */
export class RecordingSink implements UserEventSink {
  readonly events: Array<{ id: string; event: MailEvent }> = [];
  readonly resyncs: Array<string | undefined> = [];
  brokenBy: Error | undefined;

  event(id: string, event: MailEvent): void {
    this.events.push({ id, event });
  }

  resync(latestId: string | undefined): void {
    this.resyncs.push(latestId);
  }

  broken(error: Error): void {
    if (this.brokenBy) throw new Error('broken twice');
    this.brokenBy = error;
  }

  ids(): string[] {
    return this.events.map(({ id }) => id);
  }
}
