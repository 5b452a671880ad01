import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { poll } from './wait-for';

export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Node's arguments that compile TypeScript on load, as tools/run-tests.sh runs the tests: SWC's output cached on disk. */
export const TYPESCRIPT_ON_LOAD = ['--require', path.join(REPO_ROOT, 'tools/test-register.cjs')];

export interface AppProcess {
  name: string;
  pid: number;
  process: ChildProcess;
  /** Everything it wrote to stdout and stderr (the last 100 KB or more). */
  output(): string;
  /** The exit code, or the signal's name, once it has exited. */
  readonly exited: Promise<number | NodeJS.Signals>;
  /** Sends the signal (SIGTERM unless given) and resolves once it has exited; after `graceMs` it is killed. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | NodeJS.Signals>;
}

export interface NodeProcessOptions {
  /** Added to this process's own environment; an undefined value takes a variable out. */
  env?: Record<string, string | undefined>;
}

export interface AppProcessOptions {
  /** Added to the test's own environment. */
  env?: Record<string, string>;
  /** Node flags before the entry, such as a heap cap. */
  nodeOptions?: string[];
}

const running = new Set<ChildProcess>();
// However this process ends, no child it started is left behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** `node <args>` from the repository root, its output kept; its ops port is any free one. */
export function startNodeProcess(name: string, args: string[], options: NodeProcessOptions = {}): AppProcess {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, OPS_PORT: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? (signal as NodeJS.Signals));
    }),
  );
  return {
    name,
    pid: child.pid as number,
    process: child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM', graceMs = 5000) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** An app as it runs in production: its own process from its entry file, TypeScript compiled on load. */
export function startAppProcess(name: string, entry: string, options: AppProcessOptions = {}): AppProcess {
  // Its start-up line is what the helpers wait for, whatever level the test process logs at.
  return startNodeProcess(name, [...(options.nodeOptions ?? []), ...TYPESCRIPT_ON_LOAD, entry], { env: { LOG_LEVEL: 'info', ...options.env } });
}

/** Polls `url` until it answers 2xx; fails at once if the app exits, and kills it if it never answers. */
export async function waitForHttp(app: AppProcess, url: string, timeoutMs = 30_000): Promise<void> {
  const answered = await poll(
    async () => {
      if (app.process.exitCode !== null) throw new Error(`${app.name} exited with ${app.process.exitCode}:\n${app.output()}`);
      try {
        return (await fetch(url)).ok;
      } catch {
        return false; // not listening yet
      }
    },
    { timeoutMs, intervalMs: 100 },
  );
  if (!answered) {
    app.process.kill('SIGKILL');
    throw new Error(`${app.name} did not answer on ${url}:\n${app.output()}`);
  }
}

/** Waits for what the app writes once it is ready (workers have no HTTP port); fails at once if it exits. */
export async function waitForOutput(app: AppProcess, ready: RegExp, timeoutMs = 30_000): Promise<void> {
  const said = await poll(
    () => {
      if (ready.test(app.output())) return true;
      if (app.process.exitCode !== null || app.process.signalCode !== null) throw new Error(`${app.name} exited at start:\n${app.output()}`);
      return false;
    },
    { timeoutMs, intervalMs: 50 },
  );
  if (!said) {
    app.process.kill('SIGKILL');
    throw new Error(`${app.name} did not say it was ready:\n${app.output()}`);
  }
}
