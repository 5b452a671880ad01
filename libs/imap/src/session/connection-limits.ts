/** Gives back the place a connection held. */
export type Release = () => void;

/**
 * Connections open at once, per client address and per signed-in user, in this process: past either limit a
 * new one is refused, so one client or one account cannot take every session the process can hold.
 */
export class ConnectionLimits {
  private readonly byAddress = new Map<string, number>();
  private readonly byUser = new Map<number, number>();

  constructor(private readonly limits: { perAddress: number; perUser: number }) {}

  /** A place for a connection from `address`, or undefined past the limit. */
  connect(address: string): Release | undefined {
    return take(this.byAddress, address, this.limits.perAddress);
  }

  /** A place for a session of the user, or undefined past the limit. */
  signIn(userId: number): Release | undefined {
    return take(this.byUser, userId, this.limits.perUser);
  }
}

function take<Key>(counts: Map<Key, number>, key: Key, limit: number): Release | undefined {
  const count = counts.get(key) ?? 0;
  if (count >= limit) return undefined;
  counts.set(key, count + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (counts.get(key) ?? 1) - 1;
    if (left === 0) counts.delete(key);
    else counts.set(key, left);
  };
}
