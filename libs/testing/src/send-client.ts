import type { SendStatusView, SendView } from '@letterbox/sending';
import { waitFor } from './wait-for';

/** What the send API answers about a send. */
export type SendStatus = SendView & { statusUrl?: string; recipients?: SendStatusView['recipients'] };

export interface Answer<Body> {
  status: number;
  headers: Headers;
  body: Body;
}

async function answerOf<Body>(response: Response): Promise<Answer<Body>> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, headers: response.headers, body: body as Body };
}

/** The send routes as a client calls them. */
export class SendClient {
  constructor(
    readonly url: string,
    private readonly token?: string,
  ) {}

  as(token: string | undefined): SendClient {
    return new SendClient(this.url, token);
  }

  private authorization(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}` } : {};
  }

  async send<Body = SendStatus>(body: unknown, headers: Record<string, string> = {}): Promise<Answer<Body>> {
    const response = await fetch(`${this.url}/v2/mails/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...this.authorization(), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    return answerOf<Body>(response);
  }

  /** multipart/form-data: repeated fields for arrays, files in `attachments`. */
  async sendMultipart<Body = SendStatus>(
    fields: Record<string, string | string[]>,
    files: Array<{ filename: string; contentType: string; content: Buffer }>,
    headers: Record<string, string> = {},
  ): Promise<Answer<Body>> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one);
    // Copies in plain ArrayBuffers: what Blob takes under the DOM's types too (the webmail's tests).
    for (const file of files) form.append('attachments', new Blob([new Uint8Array(file.content)], { type: file.contentType }), file.filename);
    const response = await fetch(`${this.url}/v2/mails/send`, {
      method: 'POST',
      headers: { ...this.authorization(), ...headers },
      body: form,
      signal: AbortSignal.timeout(15_000),
    });
    return answerOf<Body>(response);
  }

  async status<Body = SendStatus>(id: number): Promise<Answer<Body>> {
    return answerOf<Body>(await fetch(`${this.url}/v2/mails/send/${id}`, { headers: this.authorization() }));
  }

  async cancel<Body = SendStatus>(id: number): Promise<Answer<Body>> {
    return answerOf<Body>(await fetch(`${this.url}/v2/mails/send/${id}/cancel`, { method: 'POST', headers: this.authorization() }));
  }

  /** The sends waiting for their time (GET /v2/mails/send/scheduled). */
  async scheduled<Body = { items: Array<SendStatus & { subject: string; to: string[] }> }>(): Promise<Answer<Body>> {
    return answerOf<Body>(await fetch(`${this.url}/v2/mails/send/scheduled`, { headers: this.authorization() }));
  }

  /** The send's status, asserting the route answered 200. */
  async current(id: number): Promise<SendStatus> {
    const answer = await this.status(id);
    if (answer.status !== 200) throw new Error(`status of send ${id}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  /** Waits until the send is in one of `statuses` and returns it. */
  async until(id: number, statuses: Array<SendStatus['status']>, timeoutMs = 20_000): Promise<SendStatus> {
    let last: SendStatus | undefined;
    return waitFor(
      async () => {
        last = await this.current(id);
        return statuses.includes(last.status) ? last : undefined;
      },
      { timeoutMs, what: () => `send ${id} to be ${statuses.join(' or ')} (last: ${JSON.stringify(last)})` },
    );
  }
}
