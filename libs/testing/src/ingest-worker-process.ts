import { startAppProcess, waitForOutput, type AppProcess } from './app-process';

/** The ingest worker as its own process, as it runs in production (apps/ingest-worker/src/main.ts). */
export async function startIngestWorkerProcess(env: Record<string, string>): Promise<AppProcess> {
  const worker = startAppProcess('ingest worker', 'apps/ingest-worker/src/main.ts', { env });
  await waitForOutput(worker, /ingest worker consuming/);
  return worker;
}
