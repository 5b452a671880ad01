import { SMTPServer } from 'smtp-server';
import { QueueUnavailableError } from '@letterbox/queue';
import { InboundRejectedError, MessageTooLargeError } from './inbound-errors';
import type { InboundIntake } from './inbound-intake';

export interface SmtpIntakeOptions {
  /** The name in the greeting and replies. */
  hostname: string;
}

/**
 * An SMTP listener for mail to Letterbox users, from any mail server. It never relays: a
 * recipient who is not a Letterbox user is refused at RCPT, before any data is sent. The
 * message is in storage and queued before the 250 that takes responsibility for it.
 */
export function createSmtpIntake(intake: InboundIntake, options: SmtpIntakeOptions): SMTPServer {
  return new SMTPServer({
    name: options.hostname,
    banner: 'Letterbox ingest',
    size: intake.maxMessageBytes,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      intake.knows(address.address).then(
        (known) => callback(known ? undefined : smtpError(550, `5.1.1 <${address.address}>: no such user here`)),
        (error: unknown) => callback(temporaryFailure(error)),
      );
    },
    onData(stream, session, callback) {
      intake.accept({ content: stream, envelopeRecipients: session.envelope.rcptTo.map((recipient) => recipient.address) }).then(
        (accepted) => callback(null, `2.0.0 queued as ${accepted.inboundId}`),
        (error: unknown) => {
          if (error instanceof MessageTooLargeError) callback(smtpError(552, `5.3.4 ${error.message}`));
          else if (error instanceof InboundRejectedError) callback(smtpError(554, `5.6.0 ${error.message}`));
          else callback(temporaryFailure(error));
        },
      );
    },
  });
}

/** Not accepted, so the sending server keeps the message and tries again later. */
function temporaryFailure(error: unknown): Error {
  if (!(error instanceof QueueUnavailableError)) console.error(`[smtp-intake] ${(error as Error).message}`);
  return smtpError(451, '4.3.0 temporary failure, try again later');
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}
