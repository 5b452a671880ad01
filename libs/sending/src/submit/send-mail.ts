import type { SenderDirectory } from '../sender-directory';
import type { AnswerMode, Sender, SendAttachment, SendRequest } from './send-request';
import type { SendSubmission } from './send-submission';
import type { SendStatusView } from './send-view';

/** A send as the user asked for it; `original` is the id of a mail it answers (`mode`, a reply by default) or forwards. */
export interface MailToSend extends Omit<SendRequest, 'answering' | 'attachments'> {
  original?: number;
  mode?: AnswerMode;
  /** Files uploaded with it, already in blob storage. */
  attachments: SendAttachment[];
}

/**
 * Sending a mail, from the signed-in user's request to the queue: the user as a sender,
 * the reply or forward completed from its original, the send recorded and queued (each
 * with the requests that arrive meanwhile). A retried request with the same idempotency
 * key gets the first send back.
 */
export class SendMail {
  constructor(
    private readonly senders: SenderDirectory,
    private readonly submission: SendSubmission,
  ) {}

  async send(user: Pick<Sender, 'userId' | 'officeId'>, { original, mode, ...mail }: MailToSend, idempotencyKey?: string): Promise<SendStatusView> {
    const draft = { ...mail, original: original === undefined ? undefined : { mailId: original, mode: mode ?? 'reply' } };
    const { send } = await this.submission.submit(await this.senders.of(user), draft, idempotencyKey);
    return send;
  }
}
