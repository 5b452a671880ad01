import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deliveryWorkerEnv, freePort, REPO_ROOT, startAppProcess, testSettings, waitForHttp, waitForOutput, type AppProcess } from '@letterbox/testing';

export interface Platform {
  webmailUrl: string;
  /** The webmail's ops listener: /metrics and /health/*. */
  webmailOpsUrl: string;
  readApiUrl: string;
  sendApiUrl: string;
  ingestUrl: string;
  /** The ingest app's SMTP listener, where the internet delivers mail. */
  ingestSmtpPort: number;
  ingestToken: string;
  mockProvidersUrl: string;
  queuePrefix: string;
  apps: AppProcess[];
  /** Writes each app's output to `dir` (kept with the test's artifacts). */
  saveLogs(dir: string): Promise<void>;
  stop(): Promise<void>;
}

const INGEST_TOKEN = 'letterbox-ingest-webmail-test';
/** Seven apps compile their TypeScript at once as they start: on a busy machine of two cores that takes more than a minute. */
const STARTUP_MS = 180_000;

/**
 * The whole platform for a browser test, each app its own process as in production: mock
 * providers (quick SMTP), read API, send API, delivery worker, ingest, ingest worker and
 * the webmail server, against the test database, on free ports, in a queue namespace of
 * their own. `staticDir` is the built SPA.
 */
export async function startPlatform(staticDir: string): Promise<Platform> {
  const settings = testSettings();
  const queuePrefix = `test-webmail-${randomUUID().slice(0, 8)}`;
  const [readPort, sendPort, ingestPort, ingestSmtpPort, smtpPort, mockHttpPort, webmailPort, dnsPort, webmailOpsPort] = await Promise.all(
    Array.from({ length: 9 }, freePort),
  );
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const common = {
    DATABASE_URL: settings.DATABASE_URL,
    DATABASE_POOL_SIZE: '5',
    STORAGE_DIR: settings.STORAGE_DIR,
    STORAGE_COMPRESS: settings.STORAGE_COMPRESS,
    AUTH_TOKEN_SECRET: settings.AUTH_TOKEN_SECRET,
    QUEUE_PREFIX: queuePrefix,
    // The mock providers' DNS, as under `npm start`.
    DNS_SERVERS: `127.0.0.1:${dnsPort}`,
  };
  const apps: AppProcess[] = [];
  const start = (name: string, env: Record<string, string>) => {
    const app = startAppProcess(name, `apps/${name}/src/main.ts`, { env: { ...common, ...env } });
    apps.push(app);
    return app;
  };

  const stop = async () => {
    await Promise.all(apps.map((app) => app.stop()));
  };

  try {
    const mock = start('mock-providers', {
      MOCK_SMTP_PORT: String(smtpPort),
      MOCK_PROVIDERS_HTTP_PORT: String(mockHttpPort),
      MOCK_DNS_PORT: String(dnsPort),
      MOCK_PROVIDERS_HOST: '127.0.0.1',
      MOCK_SMTP_LATENCY_MS: '100',
      MOCK_SMTP_RATE_PER_SECOND: '1000',
      MOCK_SMTP_BURST: '1000',
    });
    const readApi = start('read-api', { READ_API_PORT: String(readPort), READ_API_HOST: '127.0.0.1', READ_API_WORKERS: '1' });
    const sendApi = start('send-api', { SEND_API_PORT: String(sendPort), SEND_API_HOST: '127.0.0.1' });
    const delivery = start('delivery-worker', deliveryWorkerEnv(queuePrefix, smtpPort, { READ_API_PUBLIC_URL: url(readPort) }));
    const ingest = start('ingest', {
      INGEST_HTTP_PORT: String(ingestPort),
      INGEST_SMTP_PORT: String(ingestSmtpPort),
      INGEST_HOST: '127.0.0.1',
      INGEST_TOKEN,
    });
    const ingestWorker = start('ingest-worker', {});
    const webmail = start('webmail', {
      WEBMAIL_PORT: String(webmailPort),
      WEBMAIL_HOST: '127.0.0.1',
      OPS_PORT: String(webmailOpsPort),
      WEBMAIL_STATIC_DIR: staticDir,
      READ_API_URL: url(readPort),
      SEND_API_URL: url(sendPort),
    });
    await Promise.all([
      waitForHttp(mock, `${url(mockHttpPort)}/smtp/config`, STARTUP_MS),
      waitForHttp(readApi, `${url(readPort)}/health`, STARTUP_MS),
      waitForHttp(sendApi, `${url(sendPort)}/health`, STARTUP_MS),
      waitForHttp(ingest, `${url(ingestPort)}/health`, STARTUP_MS),
      waitForHttp(webmail, `${url(webmailPort)}/health`, STARTUP_MS),
      waitForOutput(delivery, /delivery worker consuming/, STARTUP_MS),
      waitForOutput(ingestWorker, /ingest worker/i, STARTUP_MS),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    webmailUrl: url(webmailPort),
    webmailOpsUrl: url(webmailOpsPort),
    readApiUrl: url(readPort),
    sendApiUrl: url(sendPort),
    ingestUrl: url(ingestPort),
    ingestSmtpPort,
    ingestToken: INGEST_TOKEN,
    mockProvidersUrl: url(mockHttpPort),
    queuePrefix,
    apps,
    async saveLogs(dir) {
      await mkdir(dir, { recursive: true });
      await Promise.all(apps.map((app) => writeFile(path.join(dir, `${app.name}.log`), app.output())));
    },
    stop,
  };
}

export const ARTIFACTS = path.join(REPO_ROOT, 'tmp/artifacts/webmail');
