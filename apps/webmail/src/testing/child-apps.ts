import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../../..');

export interface ChildApp {
  name: string;
  process: ChildProcess;
  /** Everything it wrote to stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// However the test process ends, no app it started is left behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** One app as it runs in production: its own process, TypeScript compiled on load. */
export function startApp(name: string, entry: string, env: Record<string, string>): ChildApp {
  const child = spawn(process.execPath, ['--require', '@swc-node/register', entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', () => running.delete(child));
  return {
    name,
    process: child,
    output: () => output,
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Polls `url` until it answers 2xx; fails at once if the app exits. */
export async function waitForHttp(app: ChildApp, url: string, attempts = 300): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (app.process.exitCode !== null) throw new Error(`${app.name} exited with ${app.process.exitCode}:\n${app.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${app.name} did not answer on ${url}:\n${app.output()}`);
}

/** Waits for a line the app writes once it is ready (workers have no HTTP port). */
export async function waitForOutput(app: ChildApp, pattern: RegExp, attempts = 300): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (pattern.test(app.output())) return;
    if (app.process.exitCode !== null) throw new Error(`${app.name} exited with ${app.process.exitCode}:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${app.name} did not say it was ready:\n${app.output()}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
