import { freePort, startAppProcess, waitForOutput, type AppProcess } from '@letterbox/testing';

/** A mail as the provider accepted it: when, from which account, to whom. */
export interface AcceptedMail {
  account: string;
  envelope: { from: string; to: string[] };
  acceptedAt: number;
}

/** A push the mock FCM accepted. */
export interface AcceptedPush {
  tag?: string;
  data?: Record<string, string>;
}

export interface ProviderProcess {
  process: AppProcess;
  smtpPort: number;
  /** The control API, the FCM API and the SMTP receipts, for the platform's settings. */
  url: string;
  mails(): Promise<AcceptedMail[]>;
  pushes(): Promise<AcceptedPush[]>;
}

/**
 * The mock SMTP and FCM providers in a process of their own, as apps/mock-providers runs them.
 * The times the provider stamps must be its own: in the test's process, which hands over a
 * thousand incoming mails meanwhile, a stalled event loop stamps many acceptances at once.
 */
export async function startProviderProcess(smtpLatencyMs: number): Promise<ProviderProcess> {
  const [smtpPort, httpPort] = await Promise.all([freePort(), freePort()]);
  const process = startAppProcess('mock providers', 'apps/mock-providers/src/main.ts', {
    env: {
      MOCK_SMTP_PORT: String(smtpPort),
      MOCK_PROVIDERS_HTTP_PORT: String(httpPort),
      MOCK_SMTP_LATENCY_MS: String(smtpLatencyMs),
      // The platform's own limit is what is tested: the provider refuses nothing.
      MOCK_SMTP_RATE_PER_SECOND: '1000000',
      MOCK_SMTP_BURST: '1000000',
      MOCK_FCM_LATENCY_MS: '20',
    },
  });
  await waitForOutput(process, /mock providers: SMTP on/);
  const url = `http://127.0.0.1:${httpPort}`;
  const get = async <Body>(path: string): Promise<Body> => {
    const response = await fetch(`${url}${path}`);
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Body;
  };
  return {
    process,
    smtpPort,
    url,
    async mails() {
      const { items } = await get<{ items: Array<Omit<AcceptedMail, 'acceptedAt'> & { acceptedAt: string }> }>('/smtp/messages?limit=10000');
      return items.map((mail) => ({ ...mail, acceptedAt: Date.parse(mail.acceptedAt) }));
    },
    async pushes() {
      return (await get<{ items: AcceptedPush[] }>('/fcm/messages?limit=100000')).items;
    },
  };
}
