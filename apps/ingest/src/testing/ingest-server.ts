import 'reflect-metadata';
import { loadIngestConfig } from '../ingest.config';
import { startIngest } from '../start-ingest';

export const TEST_INGEST_TOKEN = 'test-gateway-token-0123456789';

export interface RunningIngestServer {
  url: string;
  smtpPort: number;
  /** POSTs a raw message to /v2/inbound, as a mail gateway does. */
  post(eml: Buffer | string, options?: { to?: string[]; token?: string | null; contentType?: string }): Promise<{ status: number; contentType: string | null; body: InboundAnswer }>;
  close(): Promise<void>;
}

export interface InboundAnswer {
  inboundId?: string;
  messageId?: string;
  recipients?: string[];
  status?: number;
  detail?: string;
  errors?: Array<{ field: string; message: string }>;
}

/** The ingest app (HTTP and SMTP) in this process, on free ports, against the test database; `env` overrides process.env. */
export async function startIngestServer(env: Record<string, string>): Promise<RunningIngestServer> {
  const config = loadIngestConfig({
    ...process.env,
    INGEST_HTTP_PORT: '1',
    INGEST_SMTP_PORT: '1',
    INGEST_HOST: '127.0.0.1',
    INGEST_TOKEN: TEST_INGEST_TOKEN,
    ...env,
  });
  const ingest = await startIngest({ ...config, INGEST_HTTP_PORT: 0, INGEST_SMTP_PORT: 0 }, false);
  const url = `http://127.0.0.1:${ingest.httpPort}`;
  return {
    url,
    smtpPort: ingest.smtpPort,
    async post(eml, options = {}) {
      const query = new URLSearchParams((options.to ?? []).map((to): [string, string] => ['to', to]));
      const token = options.token === undefined ? TEST_INGEST_TOKEN : options.token;
      const response = await fetch(`${url}/v2/inbound${query.size > 0 ? `?${query}` : ''}`, {
        method: 'POST',
        headers: { 'content-type': options.contentType ?? 'message/rfc822', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
        body: eml,
      });
      return { status: response.status, contentType: response.headers.get('content-type'), body: (await response.json()) as InboundAnswer };
    },
    close: () => ingest.http.close(),
  };
}
