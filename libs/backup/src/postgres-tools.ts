import { spawn } from 'node:child_process';

/** A PostgreSQL client program (pg_dump, pg_restore) failed: its own words, or that it is not installed. */
export class PostgresToolError extends Error {}

/**
 * libpq's environment for the database at `url`: the password goes in PGPASSWORD, not on
 * the command line, where any user of the machine could read it (ps).
 */
function libpqEnvironment(url: string): NodeJS.ProcessEnv {
  const parsed = new URL(url);
  const sslmode = parsed.searchParams.get('sslmode');
  return {
    PGHOST: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    PGPORT: parsed.port || '5432',
    PGDATABASE: decodeURIComponent(parsed.pathname.slice(1)),
    ...(parsed.username ? { PGUSER: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { PGPASSWORD: decodeURIComponent(parsed.password) } : {}),
    ...(sslmode ? { PGSSLMODE: sslmode } : {}),
  };
}

/** Runs a PostgreSQL client program against the database at `url`; rejects with what it wrote on stderr when it fails. */
export function runPostgresTool(program: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env: { ...process.env, ...libpqEnvironment(url) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      // Its last words say why it failed; a long warning stream is not kept whole.
      stderr = (stderr + text).slice(-4000);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new PostgresToolError(
          error.code === 'ENOENT'
            ? `${program} is not installed: install the PostgreSQL client of the server's version (apt-get install postgresql-client)`
            : error.message,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new PostgresToolError(`${program} failed (exit ${code}): ${stderr.trim()}`));
    });
  });
}
