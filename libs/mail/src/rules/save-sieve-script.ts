import type { Pool } from 'pg';
import { compileSieve, SieveScriptError } from '@letterbox/sieve';
import { mailboxCounters } from '../mailboxes/mailbox-queries';
import { sieveFolder } from './sieve-folders';
import type { SieveScripts } from './sieve-scripts';

/**
 * Replaces the user's rules with a script, once it parses, uses only what Letterbox runs, files
 * into folders the user has and redirects to none of their own addresses (a loop): else a
 * SieveScriptError at the line and column of the first problem, and the rules stay as they were.
 */
export class SaveSieveScript {
  constructor(
    private readonly sql: Pool,
    private readonly scripts: SieveScripts,
    /** The user's own addresses, lower-case. */
    private readonly ownAddresses: (userId: number) => Promise<string[]>,
  ) {}

  async save(userId: number, script: string): Promise<void> {
    const program = compileSieve(script);
    if (program.folders.length > 0) {
      const mailboxes = await mailboxCounters(this.sql, userId);
      const missing = program.folders.find((folder) => !sieveFolder(mailboxes, folder.name));
      if (missing) throw new SieveScriptError(missing.at.line, missing.at.column, `there is no folder named "${missing.name}"`);
    }
    if (program.redirects.length > 0) {
      const own = new Set(await this.ownAddresses(userId));
      const back = program.redirects.find((redirect) => own.has(redirect.address));
      if (back) throw new SieveScriptError(back.at.line, back.at.column, `"${back.address}" is your own address: mail redirected there would come back`);
    }
    await this.scripts.put(userId, script);
  }
}
