import { freePort } from './free-port';
import { startAppProcess, waitForOutput } from './app-process';
import { postInbound, TEST_INGEST_TOKEN, type RunningIngestServer } from './inbound-client';

/** The ingest app (HTTP and SMTP) as its own process, as it runs in production (apps/ingest/src/main.ts), on free ports; `env` is added to the test's. */
export async function startIngestProcess(env: Record<string, string>): Promise<RunningIngestServer> {
  const [httpPort, smtpPort] = await Promise.all([freePort(), freePort()]);
  const app = startAppProcess('ingest', 'apps/ingest/src/main.ts', {
    env: { INGEST_TOKEN: TEST_INGEST_TOKEN, ...env, INGEST_HOST: '127.0.0.1', INGEST_HTTP_PORT: String(httpPort), INGEST_SMTP_PORT: String(smtpPort) },
  });
  // Written once both listeners are up.
  await waitForOutput(app, /ingest: HTTP on/);
  const url = `http://127.0.0.1:${httpPort}`;
  return {
    url,
    smtpPort,
    post: (eml, options) => postInbound(url, eml, options),
    close: async () => {
      await app.stop();
    },
  };
}
