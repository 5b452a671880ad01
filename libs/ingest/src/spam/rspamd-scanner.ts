import type { SpamVerdict } from '@letterbox/mail';
import { spamChecksTotal } from '@letterbox/observability';
import { postToRspamd, RspamdTimeout, type RspamdAddress } from './rspamd-request';

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
  /** The scanner worker: `http://127.0.0.1:11333` (its host and port; rspamd's worker speaks plain HTTP). */
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
 * Asks rspamd's scanner about messages (`POST /checkv2`), at most `concurrency` at once, each
 * within its timeout, its wait for a turn included. A message rspamd does not answer for in
 * time, or at all, gets no verdict (counted in letterbox_spam_checks_total): it is stored
 * unscored, never held back.
 */
export class RspamdScanner {
  private readonly address: RspamdAddress;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: RspamdScannerOptions) {
    const url = new URL(options.url);
    this.address = { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) };
  }

  /** rspamd's verdict, or undefined when it was slow or away. */
  async check(message: Buffer, request: SpamCheckRequest): Promise<SpamVerdict | undefined> {
    const deadline = Date.now() + this.options.timeoutMs;
    if (!(await this.turn())) {
      spamChecksTotal.inc({ outcome: 'timeout' });
      return undefined;
    }
    try {
      const verdict = verdictOf(await this.post(message, request, deadline - Date.now()));
      spamChecksTotal.inc({ outcome: 'scored' });
      return verdict;
    } catch (error) {
      spamChecksTotal.inc({ outcome: error instanceof RspamdTimeout ? 'timeout' : 'unavailable' });
      return undefined;
    } finally {
      this.release();
    }
  }

  /** Resolves true with a turn, false when none came within the timeout. */
  private turn(): Promise<boolean> {
    if (this.running < this.options.concurrency) {
      this.running += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const granted = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(granted), 1);
        resolve(false);
      }, this.options.timeoutMs);
      this.waiting.push(granted);
    });
  }

  /** Hands the turn to the next message waiting, if any. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  private async post(message: Buffer, { queueId, ip, helo, mailFrom, rcptTo }: SpamCheckRequest, timeoutMs: number): Promise<CheckReply> {
    const headers: Array<[string, string]> = [['Queue-Id', queueId]];
    if (ip) headers.push(['Ip', ip]);
    if (helo) headers.push(['Helo', helo]);
    if (mailFrom) headers.push(['From', mailFrom]);
    // One header line per recipient: rspamd reads each Rcpt as one address.
    for (const recipient of rcptTo) headers.push(['Rcpt', recipient]);
    const answer = await postToRspamd(this.address, '/checkv2', headers, message, timeoutMs);
    if (answer.status !== 200) throw new Error(`rspamd answered ${answer.status}`);
    return JSON.parse(answer.body.toString('utf8')) as CheckReply;
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
