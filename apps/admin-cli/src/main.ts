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
import { ConfigError } from '@letterbox/config';
import { loggerFor, nameProcess } from '@letterbox/observability';
import { adminCliServices } from './admin-cli-services';
import { loadAdminCliConfig } from './admin-cli.config';
import { parseCommandLine, USAGE } from './command-line';
import { UsageError } from './usage-error';

nameProcess('admin-cli');

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
];

async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`admin: ${error.message}\n${error.message.includes('\n') ? '' : `${USAGE}\n`}`);
    return 2;
  }
  const services = adminCliServices(loadAdminCliConfig());
  try {
    process.stdout.write(`${await parsed.command.run(services, parsed)}\n`);
    return 0;
  } finally {
    await services.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || REFUSALS.some((refusal) => error instanceof refusal)) {
      process.stderr.write(`admin: ${(error as Error).message}\n`);
    } else {
      loggerFor('admin-cli').error({ err: error }, 'the command failed');
    }
    process.exitCode = 1;
  },
);
