import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');

export interface IngestWorkerProcess {
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** The ingest worker as its own process, as it runs in production (apps/ingest-worker/src/main.ts). */
export async function startIngestWorkerProcess(env: Record<string, string>): Promise<IngestWorkerProcess> {
  const child = spawn(process.execPath, ['--require', '@swc-node/register', 'apps/ingest-worker/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('ingest worker consuming')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`ingest worker exited at start: ${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`ingest worker did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    output: () => output,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
