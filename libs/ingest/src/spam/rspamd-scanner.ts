import http from 'node:http';
import type { SpamVerdict } from '@letterbox/mail';
import { spamChecksTotal } from '@letterbox/observability';

/** What rspamd is told of a message beside its bytes (its protocol's request headers). */
export interface SpamCheckRequest {
  /** The acceptance's id: rspamd's log names the message by it. */
  queueId: string;
  ip?: string;
  helo?: string;
  mailFrom?: string;
  rcptTo: string[];
}

export interface RspamdScannerOptions {
  /** The scanner worker: `http://127.0.0.1:11333`. */
  url: string;
  /** Messages scored at once; the others wait their turn. */
  concurrency: number;
  /** What one message's check may take, its wait for a turn included. */
  timeoutMs: number;
}

/** The symbols a verdict keeps: the weightiest, whatever rspamd's rules add. */
const MAX_SYMBOLS = 50;

interface CheckReply {
  score: number;
  required_score: number;
  action: string;
  symbols?: Record<string, { name: string; score: number }>;
}

/**
 * Asks rspamd's scanner about messages (`POST /checkv2`) over kept-alive connections, at most
 * `concurrency` at once, each within its timeout. A message rspamd does not answer for in time,
 * or at all, gets no verdict (counted in letterbox_spam_checks_total): it is stored unscored,
 * never held back.
 */
export class RspamdScanner {
  private readonly agent: http.Agent;
  private readonly endpoint: URL;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: RspamdScannerOptions) {
    this.endpoint = new URL('/checkv2', options.url);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  }

  /** rspamd's verdict, or undefined when it was slow or away. */
  async check(message: Buffer, request: SpamCheckRequest): Promise<SpamVerdict | undefined> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      await this.turn(signal);
    } catch {
      spamChecksTotal.inc({ outcome: 'timeout' });
      return undefined;
    }
    try {
      const verdict = verdictOf(await this.post(message, request, signal));
      spamChecksTotal.inc({ outcome: 'scored' });
      return verdict;
    } catch {
      spamChecksTotal.inc({ outcome: signal.aborted ? 'timeout' : 'unavailable' });
      return undefined;
    } finally {
      this.release();
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private turn(signal: AbortSignal): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const granted = () => {
        signal.removeEventListener('abort', expired);
        resolve();
      };
      const expired = () => {
        this.waiting.splice(this.waiting.indexOf(granted), 1);
        reject(new Error('no turn within the timeout'));
      };
      this.waiting.push(granted);
      signal.addEventListener('abort', expired, { once: true });
    });
  }

  /** Hands the turn to the next message waiting, if any. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  private post(message: Buffer, { queueId, ip, helo, mailFrom, rcptTo }: SpamCheckRequest, signal: AbortSignal): Promise<CheckReply> {
    const headers: http.OutgoingHttpHeaders = { 'content-length': message.length, 'queue-id': queueId };
    if (ip) headers.ip = ip;
    if (helo) headers.helo = helo;
    if (mailFrom) headers.from = mailFrom;
    // One header line per recipient: rspamd reads each Rcpt as one address.
    if (rcptTo.length > 0) headers.rcpt = rcptTo;
    return new Promise((resolve, reject) => {
      const request = http.request(this.endpoint, { method: 'POST', agent: this.agent, headers, signal }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          if (response.statusCode !== 200) return reject(new Error(`rspamd answered ${response.statusCode}`));
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as CheckReply);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      });
      request.on('error', reject);
      request.end(message);
    });
  }
}

function verdictOf(reply: CheckReply): SpamVerdict {
  if (typeof reply.score !== 'number' || typeof reply.action !== 'string') throw new Error('rspamd answered no score');
  const symbols = Object.values(reply.symbols ?? {})
    .map(({ name, score }) => ({ name, score }))
    .sort((a, b) => Math.abs(b.score) - Math.abs(a.score) || a.name.localeCompare(b.name))
    .slice(0, MAX_SYMBOLS);
  return { score: reply.score, requiredScore: reply.required_score, action: reply.action, symbols };
}
