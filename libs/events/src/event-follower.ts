import { compareEventIds } from './event-ids';
import type { HistorySince } from './event-history';
import type { MailEvent } from './mail-events';

/** Where one open stream's events go. */
export interface UserEventSink {
  /** The next event, in history order, never one twice. */
  event(id: string, event: MailEvent): void;
  /**
   * The history no longer reaches back to the client's last event: it must refetch what it
   * shows. Events follow as usual; `latestId` (when there is history) is where to resume.
   */
  resync(latestId: string | undefined): void;
  /** Live events cannot be followed (Redis is unreachable or went away, or the server is stopping); nothing more comes. */
  broken(error: Error): void;
}

/**
 * One open stream of a user: live events wait while the history is read, then go out
 * after it, each only if newer than the last one sent, so the two overlap without
 * duplicates and without gaps.
 */
export class EventFollower {
  stopped = false;
  private waiting: Array<[string, MailEvent]> | undefined;

  constructor(
    readonly sink: UserEventSink,
    private lastId: string | undefined,
  ) {
    this.waiting = lastId === undefined ? undefined : [];
  }

  receive(id: string, event: MailEvent): void {
    if (this.waiting) this.waiting.push([id, event]);
    else this.pass(id, event);
  }

  catchUp(history: HistorySince): void {
    if ('resync' in history) {
      // The refetch the client now does covers everything up to the newest kept event.
      this.lastId = history.latestId;
      if (!this.stopped) this.sink.resync(history.latestId);
    } else {
      for (const [id, event] of history.replay) this.pass(id, event);
    }
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    for (const [id, event] of waiting) this.pass(id, event);
  }

  private pass(id: string, event: MailEvent): void {
    if (this.stopped || (this.lastId !== undefined && compareEventIds(id, this.lastId) <= 0)) return;
    this.lastId = id;
    this.sink.event(id, event);
  }
}
