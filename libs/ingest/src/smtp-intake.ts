import { SMTPServer } from 'smtp-server';
import { QueueUnavailableError } from '@letterbox/queue';
import { refusalReason } from './refusal-reason';
import { ClientRate } from './client-rate';
import { InboundRejectedError, MessageTooLargeError } from './inbound-errors';
import type { InboundIntake } from './inbound-intake';
import { inboundTotal, loggerFor } from '@letterbox/observability';

const logger = loggerFor('smtp-intake');

export interface SmtpIntakeOptions {
  /** The name in the greeting and replies. */
  hostname: string;
  /** Connections open at once, from everyone; past it a client is told to come back (421). */
  maxClients: number;
  /** Recipients of one message (RFC 5321 asks servers to take at least 100); past it 452. */
  maxRecipients: number;
  /** Connections one client address may open per minute. */
  connectionsPerMinute: number;
  /** Messages one client address may send per minute. */
  messagesPerMinute: number;
}

/**
 * An SMTP listener for mail to Letterbox users, from any mail server. It never relays: a
 * recipient who is not a Letterbox user is refused at RCPT, before any data is sent. The
 * message is in storage and queued before the 250 that takes responsibility for it.
 */
export function createSmtpIntake(intake: InboundIntake, options: SmtpIntakeOptions): SMTPServer {
  const connections = new ClientRate(options.connectionsPerMinute);
  const messages = new ClientRate(options.messagesPerMinute);
  return new SMTPServer({
    name: options.hostname,
    banner: 'Letterbox ingest',
    size: intake.maxMessageBytes,
    maxClients: options.maxClients,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onConnect(session, callback) {
      if (connections.take(session.remoteAddress)) return callback();
      refused('rate-limited');
      callback(smtpError(421, '4.7.0 too many connections from your address; try again later'));
    },
    onMailFrom(_address, session, callback) {
      if (messages.take(session.remoteAddress)) return callback();
      refused('rate-limited');
      callback(smtpError(451, '4.7.1 too many messages from your address; try again later'));
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= options.maxRecipients) {
        callback(smtpError(452, `4.5.3 too many recipients: at most ${options.maxRecipients} per message`));
        return;
      }
      intake.knows(address.address).then(
        (known) => {
          if (!known) refused('no-recipient');
          callback(known ? undefined : smtpError(550, `5.1.1 <${address.address}>: no such user here`));
        },
        (error: unknown) => callback(temporaryFailure(error)),
      );
    },
    onData(stream, session, callback) {
      intake.accept({ content: stream, envelopeRecipients: session.envelope.rcptTo.map((recipient) => recipient.address) }).then(
        (accepted) => {
          inboundTotal.inc({ channel: 'smtp', outcome: 'accepted', reason: 'accepted' });
          callback(null, `2.0.0 queued as ${accepted.inboundId}`);
        },
        (error: unknown) => {
          refused(refusalReason(error));
          if (error instanceof MessageTooLargeError) callback(smtpError(552, `5.3.4 ${error.message}`));
          else if (error instanceof InboundRejectedError) callback(smtpError(554, `5.6.0 ${error.message}`));
          else callback(temporaryFailure(error));
        },
      );
    },
  });
}

const refused = (reason: string) => inboundTotal.inc({ channel: 'smtp', outcome: 'refused', reason });

/** Not accepted, so the sending server keeps the message and tries again later. */
function temporaryFailure(error: unknown): Error {
  if (!(error instanceof QueueUnavailableError)) logger.error({ err: error }, 'an SMTP message could not be taken');
  return smtpError(451, '4.3.0 temporary failure, try again later');
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}
