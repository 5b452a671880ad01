export const TEST_INGEST_TOKEN = 'test-gateway-token-0123456789';

export interface InboundAnswer {
  inboundId?: string;
  messageId?: string;
  recipients?: string[];
  status?: number;
  detail?: string;
  errors?: Array<{ field: string; message: string }>;
}

export interface InboundPostOptions {
  to?: string[];
  /** The gateway's bearer token; TEST_INGEST_TOKEN unless given, none if null. */
  token?: string | null;
  contentType?: string;
  /** More query parameters (the sending server's `ip`, `helo`, `sender`). */
  query?: Record<string, string>;
  /** More request headers (a gateway's own `authentication-results`). */
  headers?: Record<string, string>;
}

export interface RunningIngestServer {
  url: string;
  smtpPort: number;
  /** POSTs a raw message to /v2/inbound, as a mail gateway does. */
  post(eml: Buffer | string, options?: InboundPostOptions): Promise<{ status: number; contentType: string | null; body: InboundAnswer }>;
  close(): Promise<void>;
}

/** POSTs a raw message to the ingest app at `url`, as a mail gateway does. */
export async function postInbound(
  url: string,
  eml: Buffer | string,
  options: InboundPostOptions = {},
): Promise<{ status: number; contentType: string | null; body: InboundAnswer }> {
  const query = new URLSearchParams([...(options.to ?? []).map((to): [string, string] => ['to', to]), ...Object.entries(options.query ?? {})]);
  const token = options.token === undefined ? TEST_INGEST_TOKEN : options.token;
  const response = await fetch(`${url}/v2/inbound${query.size > 0 ? `?${query}` : ''}`, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'message/rfc822',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...options.headers,
    },
    // A copy in a plain ArrayBuffer: what fetch takes under the DOM's types too (the webmail's tests).
    body: typeof eml === 'string' ? eml : new Uint8Array(eml),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), body: (await response.json()) as InboundAnswer };
}
