import { readFile } from 'node:fs/promises';
import { freePort } from './free-port';
import { startAppProcess, waitForHttp, type AppProcessOptions } from './app-process';
import { login } from './login';

export interface ApiProcess {
  url: string;
  pid: number;
  /** Resident set size of the server process, from /proc, in bytes. */
  rss(): Promise<number>;
  login(email: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The read API as its own process, as it runs in production, so that its memory can be
 * measured apart from the test's. Extra Node flags (a heap cap) go in `options.nodeOptions`.
 */
export async function startReadApiProcess(options: AppProcessOptions = {}): Promise<ApiProcess> {
  const port = await freePort();
  const app = startAppProcess('read API', 'apps/read-api/src/main.ts', {
    env: { ...options.env, READ_API_PORT: String(port), READ_API_HOST: '127.0.0.1', READ_API_WORKERS: '1' },
    nodeOptions: options.nodeOptions,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(app, `${url}/health`, 15_000);
  return {
    url,
    pid: app.pid,
    rss: async () => {
      const status = await readFile(`/proc/${app.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    login: (email, password) => login(url, email, password),
    stop: async () => {
      await app.stop();
    },
  };
}
