import { loggerFor, nameProcess } from '@letterbox/observability';
import { runAdminCommand } from './run-admin-command';

nameProcess('admin-cli');

runAdminCommand(process.argv.slice(2), process).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    loggerFor('admin-cli').error({ err: error }, 'the command failed');
    process.exitCode = 1;
  },
);
