import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const REPO_ROOT = path.join(__dirname, '../..');

const DEFAULT_START_TIMEOUT_MS = 30_000;
const DEFAULT_STOP_GRACE_MS = 5_000;
const OUTPUT_TAIL_BYTES = 4096;

export interface ServiceSpec {
  /** As it reads in messages, e.g. "the naive server". */
  name: string;
  /** Arguments to node. */
  args: string[];
  /** Added to the harness's own environment; an undefined value takes a variable out. */
  env: Record<string, string | undefined>;
  /** True once the service can be used; polled every 200 ms. */
  ready(): Promise<boolean>;
  startTimeoutMs?: number;
  /** How long SIGTERM is given before SIGKILL. */
  stopGraceMs?: number;
}

/** A node process the harness started; it never outlives the harness. */
export interface ChildService {
  pid: number;
  /** Why it exited by itself, if it did (e.g. out of memory); undefined while it runs. */
  unexpectedExit(): string | undefined;
  /** The last few KB it wrote to stdout and stderr. */
  outputTail(): string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash or the OOM killer ends it: nothing in flight is finished. */
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();
// Whatever ends the harness, an error or Ctrl-C included, a child must not outlive it.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `node <args>` from the repository root and waits until it is ready. */
export async function startService(spec: ServiceSpec): Promise<ChildService> {
  const child = spawn(process.execPath, spec.args, {
    cwd: REPO_ROOT,
    // Any free ops port: a bench may run several workers of one kind. No line per request: logging is not what is measured.
    env: { ...process.env, OPS_PORT: '0', LOG_LEVEL: 'warn', ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-OUTPUT_TAIL_BYTES));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exitReason: string | undefined;
  let stopping = false;
  child.once('exit', (code, signal) => {
    running.delete(child);
    if (!stopping) exitReason = `exited with ${signal ?? `code ${code}`}; its last output:\n${tail.trim()}`;
  });

  const service: ChildService = {
    pid: child.pid as number,
    unexpectedExit: () => exitReason,
    outputTail: () => tail,
    async stop() {
      stopping = true;
      if (!running.has(child)) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), spec.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      stopping = true;
      if (!running.has(child)) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
  const timeoutMs = spec.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  while (!(await spec.ready())) {
    if (exitReason) throw new Error(`${spec.name} did not start: it ${exitReason}`);
    if (Date.now() > deadline) {
      await service.stop();
      throw new Error(`${spec.name} was not ready within ${timeoutMs / 1000} s; its last output:\n${tail.trim()}`);
    }
    await sleep(200);
  }
  return service;
}

/** Whether GET <base>/health answers 2xx within a second. */
export async function answersHealth(base: URL): Promise<boolean> {
  try {
    return (await fetch(new URL('/health', base), { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}
