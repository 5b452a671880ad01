import { ForbiddenException, Logger, UnauthorizedException } from '@nestjs/common';
import { refuseDuringSetup, type AuthenticatedUser, type SessionChange, type TokenAuthenticator, type UserSessions } from '@letterbox/auth';
import { sseConnections } from '@letterbox/observability';

/** An open event stream: whose, under which token, and how to end it with a last word to the client. */
export interface OpenStream {
  user: AuthenticatedUser;
  end(detail: string): void;
}

/**
 * Each user's open event streams in this process, oldest first. A stream lives only while its token stands: every
 * change of sessions announced (a sign-out of its session or of all, a new password, a disable, a removal) has
 * the streams concerned checked again, and those whose token no longer stands end at once.
 *
 * Past the cap, a new stream makes room rather than being refused: refusing let a thief holding the user's token
 * open every stream and lock the owner out of live updates. It closes the oldest stream of its own session (token
 * family: its own other tabs, which can be spared), else one whose token no longer stands, else the user's oldest.
 * So a stream of the owner's live session always gets in, and a thief's streams are what goes when the owner signs
 * the thief's session out; two tabs of one session past the cap take turns rather than one of them failing for good.
 */
export class OpenStreams {
  private readonly logger = new Logger('events');
  private readonly perUser = new Map<number, Set<OpenStream>>();

  constructor(
    private readonly maxPerUser: number,
    private readonly authenticator: TokenAuthenticator,
    sessions: UserSessions,
  ) {
    sessions.onChange((change) => void this.recheck(change));
  }

  /** Counts the stream, closing another of the user's when at the cap; the returned function uncounts it (once). */
  async take(stream: OpenStream): Promise<() => void> {
    const open = this.perUser.get(stream.user.userId);
    if (open && open.size >= this.maxPerUser) {
      const evicted = await this.roomMaker(stream.user.sessionId, [...open]);
      this.release(evicted);
      evicted.end(`closed for a newer stream of this account: at most ${this.maxPerUser} may be open at once`);
    }
    // Looked up again: the user's streams may all have closed while the checks ran.
    const streams = this.perUser.get(stream.user.userId) ?? new Set<OpenStream>();
    this.perUser.set(stream.user.userId, streams);
    streams.add(stream);
    sseConnections.inc();
    return () => this.release(stream);
  }

  private async roomMaker(sessionId: string, streams: OpenStream[]): Promise<OpenStream> {
    const sameSession = streams.find((open) => open.user.sessionId === sessionId);
    if (sameSession) return sameSession;
    // A stream that cannot be checked now (the database away) is taken as standing: the oldest goes instead.
    const refusals = await Promise.all(streams.map((open) => this.refusalOf(open).catch(() => undefined)));
    return streams[refusals.findIndex((refusal) => refusal !== undefined)] ?? streams[0];
  }

  private release(stream: OpenStream): void {
    const streams = this.perUser.get(stream.user.userId);
    if (!streams?.delete(stream)) return;
    sseConnections.dec();
    if (streams.size === 0) this.perUser.delete(stream.user.userId);
  }

  /** The streams the change may concern, checked again; those whose token no longer stands end with why. */
  private async recheck(change: SessionChange): Promise<void> {
    const concerned =
      change.userId === undefined ? [...this.perUser.values()].flatMap((streams) => [...streams]) : [...(this.perUser.get(change.userId) ?? [])];
    await Promise.all(
      concerned
        .filter((open) => change.sessionId === undefined || open.user.sessionId === change.sessionId)
        .map(async (open) => {
          const refusal = await this.refusalOf(open);
          if (refusal === undefined) return;
          this.release(open);
          open.end(refusal);
        }),
    ).catch((error: Error) => this.logger.warn(`cannot check event streams again after a change of sessions: ${error.message}`));
  }

  /** Why the stream's token no longer stands (or its user must first finish a setup); undefined while it does. */
  private async refusalOf(open: OpenStream): Promise<string | undefined> {
    try {
      refuseDuringSetup(await this.authenticator.recheck(open.user));
      return undefined;
    } catch (error) {
      if (!(error instanceof UnauthorizedException || error instanceof ForbiddenException)) throw error;
      const response = error.getResponse() as { detail?: string };
      return response.detail ?? error.message;
    }
  }
}
