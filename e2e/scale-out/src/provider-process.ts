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

/** What the provider answered one account: accepted, and refused over its rate limit (451). */
export interface AccountCounts {
  accepted: number;
  rateLimited: number;
}

export interface ProviderProcess {
  process: AppProcess;
  smtpPort: number;
  /** The control API, the FCM API and the SMTP receipts, for the platform's settings. */
  url: string;
  mails(): Promise<AcceptedMail[]>;
  pushes(): Promise<AcceptedPush[]>;
  counts(account: string): Promise<AccountCounts>;
}

/** The provider's limits: its latency, and the bucket it holds each account to. */
export interface ProviderBehaviour {
  latencyMs: number;
  ratePerSecond: number;
  burst: number;
}

/**
 * The mock SMTP and FCM providers in a process of their own, as apps/mock-providers runs them.
 * The times the provider stamps must be its own: in the test's process, which hands over a
 * thousand incoming mails meanwhile, a stalled event loop stamps many acceptances at once.
 */
export async function startProviderProcess(behaviour: ProviderBehaviour): Promise<ProviderProcess> {
  const [smtpPort, httpPort, dnsPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const process = startAppProcess('mock providers', 'apps/mock-providers/src/main.ts', {
    env: {
      MOCK_SMTP_PORT: String(smtpPort),
      MOCK_PROVIDERS_HTTP_PORT: String(httpPort),
      MOCK_DNS_PORT: String(dnsPort),
      MOCK_SMTP_LATENCY_MS: String(behaviour.latencyMs),
      MOCK_SMTP_RATE_PER_SECOND: String(behaviour.ratePerSecond),
      MOCK_SMTP_BURST: String(behaviour.burst),
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
    async counts(account) {
      const { accounts } = await get<{ accounts: Record<string, AccountCounts> }>('/smtp/accounts');
      return accounts[account.toLowerCase()] ?? { accepted: 0, rateLimited: 0 };
    },
  };
}
