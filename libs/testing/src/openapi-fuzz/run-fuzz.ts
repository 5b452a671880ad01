import type { FuzzRequest } from './fuzz-request-types';

/** An answer that breaks the contract: a 5xx, a 4xx that is no problem+json with a detail, or no answer at all. */
export interface Finding {
  request: FuzzRequest;
  authenticated: boolean;
  status?: number;
  contentType?: string | null;
  body: string;
  problem: string;
}

export interface FuzzRunOptions {
  /** Sent as a bearer token; none when undefined. */
  token?: string;
  concurrency?: number;
  /** Operations (labels) run after all others, such as a logout that ends the token's session. */
  last?: string[];
  timeoutMs?: number;
}

/**
 * Sends every request and returns those whose answer breaks the contract. Reads run first,
 * then writes, then deletions, then `last`: what a request changes spoils the fewest others.
 */
export async function runFuzz(url: string, requests: FuzzRequest[], options: FuzzRunOptions = {}): Promise<Finding[]> {
  const { concurrency = 16, last = [], timeoutMs = 30_000 } = options;
  const phaseOf = (request: FuzzRequest) => (last.includes(request.operation.label) ? 3 : request.method === 'GET' ? 0 : request.method === 'DELETE' ? 2 : 1);
  const findings: Finding[] = [];
  for (const phase of [0, 1, 2, 3]) {
    await inPool(
      requests.filter((request) => phaseOf(request) === phase),
      concurrency,
      async (request) => {
        const finding = await answerOf(url, request, options.token, timeoutMs);
        if (finding) findings.push(finding);
      },
    );
  }
  return findings;
}

async function answerOf(url: string, request: FuzzRequest, token: string | undefined, timeoutMs: number): Promise<Finding | undefined> {
  const finding = (problem: string, extra: Partial<Finding> = {}): Finding => ({ request, authenticated: token !== undefined, body: '', problem, ...extra });
  let response: Response;
  try {
    response = await fetch(`${url}${request.url}`, {
      method: request.method,
      headers: { ...request.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: request.body as RequestInit['body'],
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return finding(`no answer: ${String((error as Error).cause ?? error)}`);
  }
  const { status } = response;
  const contentType = response.headers.get('content-type');
  if (status < 400) {
    // A success may be a download or an endless event stream: its body is not the fuzzer's business.
    await response.body?.cancel();
    return undefined;
  }
  const body = await response.text();
  const answered = { status, contentType, body: body.slice(0, 500) };
  if (status >= 500) return finding(`answered ${status}`, answered);
  if (!contentType?.startsWith('application/problem+json'))
    return finding(`answered ${status} as ${contentType ?? 'no content type'}, not application/problem+json`, answered);
  const detail = detailOf(body);
  if (!detail) return finding(`answered ${status} with a problem that has no detail`, answered);
  return undefined;
}

function detailOf(body: string): string | undefined {
  try {
    const detail = (JSON.parse(body) as { detail?: unknown }).detail;
    return typeof detail === 'string' && detail.trim() !== '' ? detail : undefined;
  } catch {
    return undefined;
  }
}

async function inPool<Item>(items: Item[], concurrency: number, work: (item: Item) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** One line per finding, for an assertion message: `POST /v2/mails/send [token] body.subject: NUL → answered 500 ...`. */
export function describeFindings(findings: Finding[], max = 30): string {
  const lines = findings
    .slice(0, max)
    .map(
      (finding) =>
        `${finding.request.operation.label} [${finding.authenticated ? 'token' : 'no token'}] ${finding.request.input} → ${finding.problem}: ${finding.body.slice(0, 200)}`,
    );
  const more = findings.length > max ? [`... and ${findings.length - max} more`] : [];
  return [...lines, ...more].join('\n');
}
