import { runAdminCommand } from '../run-admin-command';

/** What an admin command printed, and its exit code. */
export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command run in this process, as main.ts runs it (a process's start costs seconds), with `env` over this process's and its output kept. */
export async function adminInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<AdminRun> {
  const output = { stdout: '', stderr: '' };
  const code = await runAdminCommand(args, {
    stdout: { write: (text: string) => (output.stdout += text) },
    stderr: { write: (text: string) => (output.stderr += text) },
    env: { ...process.env, ...env },
  });
  return { code, ...output };
}
