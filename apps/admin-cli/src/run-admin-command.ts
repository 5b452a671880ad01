import {
  AddressTakenError,
  DkimKeyNotFoundError,
  DomainNotOwnedError,
  DomainTakenError,
  LastAdminError,
  UnknownDomainError,
  UnknownOfficeError,
  UnknownUserError,
} from '@letterbox/admin';
import { BackupRefusedError, ImportRunningError, MboxFormatError, PostgresToolError, RestoreRefusedError } from '@letterbox/backup';
import { ConfigError } from '@letterbox/config';
import { adminCliServices } from './admin-cli-services';
import { loadAdminCliConfig } from './admin-cli.config';
import { parseCommandLine, USAGE } from './command-line';
import { UsageError } from './usage-error';

/** What the operator asked that cannot be done: told in a line, not a stack. */
const REFUSALS = [
  AddressTakenError,
  DomainTakenError,
  DomainNotOwnedError,
  UnknownOfficeError,
  UnknownDomainError,
  UnknownUserError,
  LastAdminError,
  DkimKeyNotFoundError,
  ConfigError,
  UsageError,
  BackupRefusedError,
  RestoreRefusedError,
  PostgresToolError,
  MboxFormatError,
  ImportRunningError,
];

export interface AdminConsole {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

/**
 * Runs one `npm run admin -- <args>` command and answers its exit code: 0 done (its result on
 * stdout), 2 a command line that names no valid command (with the usage), 1 a refusal (a
 * line on stderr). Anything else is thrown, for the caller to log.
 */
export async function runAdminCommand(args: string[], { stdout, stderr, env }: AdminConsole): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(`admin: ${error.message}\n${error.message.includes('\n') ? '' : `${USAGE}\n`}`);
    return 2;
  }
  try {
    const services = adminCliServices(loadAdminCliConfig(env));
    try {
      stdout.write(`${await parsed.command.run(services, parsed)}\n`);
      return 0;
    } finally {
      await services.close();
    }
  } catch (error) {
    if (!REFUSALS.some((refusal) => error instanceof refusal)) throw error;
    stderr.write(`admin: ${(error as Error).message}\n`);
    return 1;
  }
}
