import { ConfigError } from '@letterbox/config';

/** Stops an app that could not start, saying why in plain text on stderr: the logger's own settings may be what is wrong. */
export function exitOnStartupFailure(name: string, error: unknown): never {
  const reason = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`${name} cannot start. ${reason}\n`);
  process.exit(1);
}
