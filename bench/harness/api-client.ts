export interface HealthReport {
  status: string;
  pid: number;
  rssBytes: number;
}

export class ApiNotRunningError extends Error {
  constructor(
    message: string,
    /** Which API: without the read API no scenario can run, without the send API only the send ones cannot. */
    readonly api: string,
  ) {
    super(message);
  }
}

/** The few calls the harness itself makes to a server, outside the measured load. */
export class ApiClient {
  constructor(
    readonly base: URL,
    /** How to start this API, for the message when nothing answers. */
    private readonly startHint = `READ_API_PORT=${base.port || 80} node --require @swc-node/register apps/read-api/src/main.ts`,
    readonly name = 'read API',
  ) {}

  /** Fails with a message saying how to start the API when nothing healthy answers. */
  async health(): Promise<HealthReport> {
    const url = new URL('/health', this.base);
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    } catch (error) {
      throw new ApiNotRunningError(
        `nothing answers at ${url} (${(error as Error).message}). Start the ${this.name} first, e.g.\n  ${this.startHint}`,
        this.name,
      );
    }
    if (!response.ok) throw new ApiNotRunningError(`${url} answered ${response.status}: ${await response.text()}`, this.name);
    return (await response.json()) as HealthReport;
  }

  async login(email: string, password: string): Promise<string> {
    const response = await fetch(new URL('/v2/auth/login', this.base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (!response.ok) {
      throw new Error(`cannot sign in as ${email} (${response.status}); run bench/prepare.ts first to create the bench data`);
    }
    return ((await response.json()) as { accessToken: string }).accessToken;
  }

  async getJson<T>(path: string, token?: string): Promise<T> {
    const response = await fetch(new URL(path, this.base), { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return (await response.json()) as T;
  }

  /** POSTs JSON; the answer's status and JSON body, whatever the status. */
  async postJson<T>(path: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
    const response = await fetch(new URL(path, this.base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text for the error message.
    }
    return { status: response.status, body: parsed as T };
  }
}
