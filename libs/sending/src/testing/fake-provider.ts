import nodemailer, { type Transporter } from 'nodemailer';
import type { ProviderReceipts } from '../deliver/provider-receipts';

/** A message the provider took: its envelope, its Message-ID and the message as written. */
export interface TakenMessage {
  from: string;
  recipients: string[];
  messageId: string;
  raw: string;
}

/** A reply other than 250: a refusal (4xx for now, 5xx for good), or a 250 the sender never hears of. */
export type ProviderAnswer = { code: number; text: string } | 'took it, then the connection dropped';

/**
 * An SMTP provider in the process, behind a real nodemailer Transporter: it keeps what it takes, answers
 * the replies it is told to give for a recipient (each once, in order, then 250), and, as a provider's
 * listing does, tells whether it took a message (ProviderReceipts).
 */
export class FakeProvider implements ProviderReceipts {
  /** What the provider took, in order. */
  readonly taken: TakenMessage[] = [];
  /** The envelope recipients of every message handed to it, taken or not, in order. */
  readonly handedOver: string[][] = [];
  private readonly answers = new Map<string, ProviderAnswer[]>();

  readonly transporter: Transporter = nodemailer.createTransport({
    name: 'fake-provider',
    version: '1',
    send: (mail, callback) => {
      const envelope = mail.message.getEnvelope();
      this.handedOver.push(envelope.to);
      const answer = this.nextAnswer(envelope.to);
      mail.message.build().then(
        (raw) => {
          if (typeof answer === 'object') return callback(refusal(answer), undefined);
          const messageId = mail.message.messageId();
          this.taken.push({ from: envelope.from || '', recipients: envelope.to, messageId, raw: raw.toString() });
          if (answer !== undefined) return callback(Object.assign(new Error('Connection closed unexpectedly'), { code: 'ECONNECTION' }), undefined);
          callback(null, { envelope, messageId, accepted: envelope.to, rejected: [], pending: [], response: '250 2.0.0 OK: queued' });
        },
        (error: Error) => callback(error, undefined),
      );
    },
  });

  /** The replies to give to the next messages to `recipient`, one each, before it takes them again. */
  answer(recipient: string, ...answers: ProviderAnswer[]): void {
    this.answers.set(recipient, [...(this.answers.get(recipient) ?? []), ...answers]);
  }

  /** The reply to a message to these recipients: the first one told for any of them, used up. */
  private nextAnswer(recipients: string[]): ProviderAnswer | undefined {
    const told = recipients.find((recipient) => (this.answers.get(recipient) ?? []).length > 0);
    return told === undefined ? undefined : this.answers.get(told)?.shift();
  }

  /** What it took for `recipient`. */
  takenFor(recipient: string): TakenMessage[] {
    return this.taken.filter((message) => message.recipients.includes(recipient));
  }

  async accepted(messageId: string, recipients: string[]): Promise<boolean> {
    return recipients.every((recipient) => this.takenFor(recipient).some((message) => message.messageId === messageId));
  }
}

/** As nodemailer's SMTP transport fails a refused message: the reply's code and text. */
function refusal({ code, text }: { code: number; text: string }): Error {
  return Object.assign(new Error(`Can't send mail - all recipients were rejected: ${code} ${text}`), {
    code: 'EENVELOPE',
    responseCode: code,
    response: `${code} ${text}`,
  });
}
