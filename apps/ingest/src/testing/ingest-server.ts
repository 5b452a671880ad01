import 'reflect-metadata';
import type { DnsResolve } from '@letterbox/mail-auth';
import { postInbound, TEST_INGEST_TOKEN, type RunningIngestServer } from '@letterbox/testing';
import { loadIngestConfig } from '../ingest.config';
import { startIngest } from '../start-ingest';

/**
 * The ingest app (HTTP and SMTP) in this process, on free ports, against the test database;
 * `env` overrides process.env; `dns`, a fake of the outside DNS, answers the checks' lookups.
 */
export async function startIngestServer(env: Record<string, string>, dns?: DnsResolve): Promise<RunningIngestServer> {
  const config = loadIngestConfig({
    ...process.env,
    INGEST_HTTP_PORT: '1',
    INGEST_SMTP_PORT: '1',
    INGEST_HOST: '127.0.0.1',
    INGEST_TOKEN: TEST_INGEST_TOKEN,
    ...env,
  });
  const ingest = await startIngest({ ...config, INGEST_HTTP_PORT: 0, INGEST_SMTP_PORT: 0 }, false, dns);
  const url = `http://127.0.0.1:${ingest.httpPort}`;
  return {
    url,
    smtpPort: ingest.smtpPort,
    post: (eml, options) => postInbound(url, eml, options),
    close: () => ingest.http.close(),
  };
}
