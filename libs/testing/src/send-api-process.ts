import { freePort } from './free-port';
import { startAppProcess, waitForHttp, type AppProcess } from './app-process';

export interface SendApiProcess {
  url: string;
  app: AppProcess;
  close(): Promise<void>;
}

/** The send API as its own process, as it runs in production (apps/send-api/src/main.ts), on a free port; `env` is added to the test's. */
export async function startSendApiProcess(env: Record<string, string>): Promise<SendApiProcess> {
  const port = await freePort();
  // No line per request: what is waited for is /health, not its output.
  const app = startAppProcess('send API', 'apps/send-api/src/main.ts', {
    env: { LOG_LEVEL: 'warn', ...env, SEND_API_PORT: String(port), SEND_API_HOST: '127.0.0.1' },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(app, `${url}/health`);
  return {
    url,
    app,
    close: async () => {
      await app.stop();
    },
  };
}
