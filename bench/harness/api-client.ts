export interface HealthReport {
  status: string;
  pid: number;
  rssBytes: number;
}

export class ApiNotRunningError extends Error {}

/** The few calls the harness itself makes to a server, outside the measured load. */
export class ApiClient {
  constructor(readonly base: URL) {}

  /** Fails with a message saying how to start the API when nothing healthy answers. */
  async health(): Promise<HealthReport> {
    const url = new URL('/health', this.base);
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    } catch (error) {
      throw new ApiNotRunningError(
        `nothing answers at ${url} (${(error as Error).message}). Start the read API first, e.g.\n` +
          `  READ_API_PORT=${this.base.port || 80} node --require @swc-node/register apps/read-api/src/main.ts`,
      );
    }
    if (!response.ok) throw new ApiNotRunningError(`${url} answered ${response.status}: ${await response.text()}`);
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
}
