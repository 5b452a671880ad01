import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { login } from '@letterbox/testing';

export interface ApiProcess {
  url: string;
  pid: number;
  /** Resident set size of the server process, from /proc, in bytes. */
  rss(): Promise<number>;
  login(email: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '../../../..');

/**
 * The read API as its own process, as it runs in production, so that its memory can be
 * measured apart from the test's. Extra Node flags (a heap cap) go in `nodeOptions`.
 */
export async function startReadApiProcess(nodeOptions: string[] = []): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeOptions, '--require', '@swc-node/register', 'apps/read-api/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, READ_API_PORT: String(port), READ_API_HOST: '127.0.0.1', READ_API_WORKERS: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, () => errors);
  return {
    url,
    pid: child.pid as number,
    rss: async () => {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    login: (email, password) => login(url, email, password),
    stop: () => stopChild(child),
  };
}

async function waitForHealth(url: string, child: ChildProcess, errors: () => string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    if (child.exitCode !== null) throw new Error(`read API exited with ${child.exitCode}: ${errors()}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`read API did not become healthy: ${errors()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
