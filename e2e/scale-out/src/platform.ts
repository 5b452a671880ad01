import { freePort, startAppProcess, waitForHttp, waitForOutput, type AppProcess } from '@letterbox/testing';

/** The shared secret the ingest apps take mail from gateways with, in this test. */
export const GATEWAY_TOKEN = 'scale-out-gateway-token-0123';

export interface HttpApp {
  process: AppProcess;
  url: string;
}

export interface IngestApp extends HttpApp {
  smtpPort: number;
}

export interface ImapApp {
  process: AppProcess;
  port: number;
}

/** Two processes of every app, sharing one PostgreSQL, one Redis (or Redis Cluster) and one object store. */
export interface Platform {
  readApis: HttpApp[];
  sendApis: HttpApp[];
  ingests: IngestApp[];
  ingestWorkers: AppProcess[];
  deliveryWorkers: AppProcess[];
  notifyWorkers: AppProcess[];
  imaps: ImapApp[];
  /** Every process, to stop them all and to show what they wrote when an assertion fails. */
  all(): AppProcess[];
}

/**
 * Starts two of each app as its own process, as a deployment runs them on many machines:
 * `shared` holds what they all share (queue prefix, Redis, storage, providers).
 */
export async function startPlatform(shared: Record<string, string>, workerEnv: Record<string, string>): Promise<Platform> {
  const twice = <T>(start: (index: number) => Promise<T>) => Promise.all([start(0), start(1)]);
  const readApis = await twice(async (index) => {
    const port = await freePort();
    const process = startAppProcess(`read API ${index}`, 'apps/read-api/src/main.ts', {
      env: { ...shared, READ_API_PORT: String(port), READ_API_HOST: '127.0.0.1', READ_API_WORKERS: '1' },
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(process, `${url}/health/live`, 60_000);
    return { process, url };
  });
  const sendApis = await twice(async (index) => {
    const port = await freePort();
    const process = startAppProcess(`send API ${index}`, 'apps/send-api/src/main.ts', {
      env: { ...shared, SEND_API_PORT: String(port), SEND_API_HOST: '127.0.0.1' },
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(process, `${url}/health/live`, 60_000);
    return { process, url };
  });
  const ingests = await twice(async (index) => {
    const [httpPort, smtpPort] = [await freePort(), await freePort()];
    const process = startAppProcess(`ingest ${index}`, 'apps/ingest/src/main.ts', {
      env: { ...shared, INGEST_HTTP_PORT: String(httpPort), INGEST_SMTP_PORT: String(smtpPort), INGEST_HOST: '127.0.0.1', INGEST_TOKEN: GATEWAY_TOKEN },
    });
    // Its start-up line comes once both listeners are up.
    await waitForOutput(process, /ingest: HTTP on .* SMTP on/, 60_000);
    return { process, url: `http://127.0.0.1:${httpPort}`, smtpPort };
  });
  const worker = async (name: string, entry: string, ready: RegExp) => {
    const process = startAppProcess(name, entry, { env: { ...shared, ...workerEnv } });
    await waitForOutput(process, ready, 60_000);
    return process;
  };
  const ingestWorkers = await twice((index) => worker(`ingest worker ${index}`, 'apps/ingest-worker/src/main.ts', /ingest worker consuming/));
  const deliveryWorkers = await twice((index) => worker(`delivery worker ${index}`, 'apps/delivery-worker/src/main.ts', /delivery worker consuming/));
  const notifyWorkers = await twice((index) => worker(`notify worker ${index}`, 'apps/notify-worker/src/main.ts', /notify worker consuming/));
  const imaps = await twice(async (index) => {
    const port = await freePort();
    // Plaintext sign-in: what the test checks is the processes' shared state, not TLS.
    const process = startAppProcess(`imap ${index}`, 'apps/imap/src/main.ts', {
      env: { ...shared, IMAP_PORT: String(port), IMAP_HOST: '127.0.0.1', IMAP_ALLOW_PLAINTEXT: 'true' },
    });
    await waitForOutput(process, /imap IMAP on/, 60_000);
    return { process, port };
  });
  return {
    readApis,
    sendApis,
    ingests,
    ingestWorkers,
    deliveryWorkers,
    notifyWorkers,
    imaps,
    all: () => [...[...readApis, ...sendApis, ...ingests, ...imaps].map((app) => app.process), ...ingestWorkers, ...deliveryWorkers, ...notifyWorkers],
  };
}

/** What each process wrote, for an assertion's message. */
export function outputsOf(platform: Platform): string {
  return platform
    .all()
    .map((process) => `--- ${process.name} ---\n${process.output().slice(-4000)}`)
    .join('\n');
}

/** The log lines of these processes that name one of the sends, for an assertion's message. */
export function linesAbout(processes: AppProcess[], sendIds: number[]): string {
  const named = new Set(sendIds);
  return processes
    .flatMap((process) =>
      process
        .output()
        .split('\n')
        .filter((line) => named.has(Number(/"sendId":(\d+)/.exec(line)?.[1])))
        .map((line) => `${process.name}: ${line}`),
    )
    .join('\n');
}
