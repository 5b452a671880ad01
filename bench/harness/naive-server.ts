import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const NAIVE_PORT = 3900;
const SERVER_FILE = path.join(__dirname, '../naive/naive-read-server.ts');
const START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;
const STDERR_TAIL_BYTES = 4096;

export interface NaiveServer {
  base: URL;
  pid: number;
  /** Why it exited by itself, if it did (e.g. out of memory); undefined while it runs. */
  unexpectedExit(): string | undefined;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// Whatever ends the harness, an error or Ctrl-C included, a naive server must not outlive it.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts bench/naive/naive-read-server.ts on 127.0.0.1:3900 with a 512 MB heap, the
 * limit the read API gets for detail-22m, and waits until it answers /health.
 */
export async function startNaiveServer(): Promise<NaiveServer> {
  const base = new URL(`http://127.0.0.1:${NAIVE_PORT}`);
  if (await answersHealth(base)) throw new Error(`port ${NAIVE_PORT} is taken; stop what listens there (a naive server left over?)`);
  const child = spawn(process.execPath, ['--max-old-space-size=512', '--require', '@swc-node/register', SERVER_FILE], {
    cwd: path.join(__dirname, '../..'),
    env: { ...process.env, NAIVE_READ_PORT: String(NAIVE_PORT) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-STDERR_TAIL_BYTES)));
  let exitReason: string | undefined;
  let stopping = false;
  child.once('exit', (code, signal) => {
    running.delete(child);
    if (!stopping) exitReason = `exited with ${signal ?? `code ${code}`}; its last output:\n${stderrTail.trim()}`;
  });

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await answersHealth(base))) {
    if (exitReason) throw new Error(`the naive server did not start: it ${exitReason}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the naive server did not answer ${base}health within ${START_TIMEOUT_MS / 1000} s`);
    }
    await sleep(200);
  }
  return {
    base,
    pid: child.pid as number,
    unexpectedExit: () => exitReason,
    async stop() {
      stopping = true;
      if (!running.has(child)) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function answersHealth(base: URL): Promise<boolean> {
  try {
    return (await fetch(new URL('/health', base), { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

