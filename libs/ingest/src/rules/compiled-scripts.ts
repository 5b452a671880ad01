import { compileSieve, type SieveProgram } from '@letterbox/sieve';
import type { StoredSieveScript } from '@letterbox/mail';

/** Users whose compiled script is kept; the one compiled first is dropped first. */
const MAX_KEPT = 10_000;

/**
 * Users' scripts compiled once for as long as they are unchanged (by their `updated_at`), not
 * for every message. A stored script that no longer compiles (one stored under an older
 * Letterbox) is `undefined`: the user's mail is kept in the inbox, as with no rules.
 */
export class CompiledScripts {
  private readonly kept = new Map<number, { updatedAt: number; program: SieveProgram | undefined }>();

  constructor(private readonly onBroken: (userId: number, error: Error) => void) {}

  programOf(userId: number, stored: StoredSieveScript): SieveProgram | undefined {
    const updatedAt = stored.updatedAt.getTime();
    const cached = this.kept.get(userId);
    if (cached?.updatedAt === updatedAt) return cached.program;
    let program: SieveProgram | undefined;
    try {
      program = compileSieve(stored.script);
    } catch (error) {
      this.onBroken(userId, error instanceof Error ? error : new Error(String(error)));
    }
    this.kept.delete(userId);
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value as number);
    this.kept.set(userId, { updatedAt, program });
    return program;
  }
}
