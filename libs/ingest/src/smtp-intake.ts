import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import type { InboundOrigin, TlsUse } from '@letterbox/mail-auth';
import { QueueUnavailableError } from '@letterbox/queue';
import { refusalReason } from './refusal-reason';
import { ClientRate } from './client-rate';
import { RecipientProbing } from './recipient-probing';
import {
  DmarcRejectedError,
  ForeignRecipientsError,
  InboundRejectedError,
  MessageTooLargeError,
  QuotaExceededError,
  SpamRejectedError,
  UnknownRecipientsError,
} from './inbound-errors';
import type { InboundIntake } from './inbound-intake';
import { clearTextRefusal, smtpTlsOptions, type SmtpTls } from './smtp-tls';
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
  /** STARTTLS with this certificate; none without. */
  tls?: SmtpTls;
}

/**
 * An SMTP listener for mail to Letterbox users, from any mail server. It never relays: a
 * recipient in a domain no office owns is refused at RCPT (550 5.7.1), as is an unknown
 * address in one (550 5.1.1), before any data is sent. The message is in storage and
 * queued before the 250 that takes responsibility for it.
 *
 * Quotas: SMTP answers the end of DATA once for every recipient (only LMTP answers each),
 * so a full mailbox is refused where a recipient can be, at RCPT (552 5.2.2), against the
 * size MAIL FROM declared (SIZE=), or one byte when it declared none: a mailbox already at
 * its quota. At the end of DATA, with the size known, the message is refused (552 5.2.2)
 * only when no recipient can take it; otherwise it is accepted for all of them, a full
 * mailbox that passed RCPT included (past its quota by that message), since what is
 * acknowledged must be stored. This is what Postfix does with a quota policy service.
 */
export function createSmtpIntake(intake: InboundIntake, options: SmtpIntakeOptions): SMTPServer {
  const connections = new ClientRate(options.connectionsPerMinute);
  const messages = new ClientRate(options.messagesPerMinute);
  const probing = new RecipientProbing(messages);
  return new SMTPServer({
    name: options.hostname,
    banner: 'Letterbox ingest',
    size: intake.maxMessageBytes,
    maxClients: options.maxClients,
    authOptional: true,
    ...smtpTlsOptions(options.tls),
    logger: false,
    onConnect(session, callback) {
      if (connections.take(session.remoteAddress)) return callback();
      refused('rate-limited');
      callback(smtpError(421, '4.7.0 too many connections from your address; try again later'));
    },
    onMailFrom(_address, session, callback) {
      const inTheClear = clearTextRefusal(options.tls, session.secure);
      if (inTheClear) {
        refused('tls-required');
        return callback(inTheClear);
      }
      if (messages.take(session.remoteAddress)) return callback();
      refused('rate-limited');
      callback(smtpError(451, '4.7.1 too many messages from your address; try again later'));
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= options.maxRecipients) {
        callback(smtpError(452, `4.5.3 too many recipients: at most ${options.maxRecipients} per message`));
        return;
      }
      intake.checkRecipient(address.address, declaredSize(session.envelope.mailFrom)).then(
        () => callback(),
        (error: unknown) => {
          refused(refusalReason(error));
          if (error instanceof ForeignRecipientsError) callback(smtpError(550, `5.7.1 <${address.address}>: relaying denied, not a domain of this server`));
          else if (error instanceof UnknownRecipientsError)
            probing.unknownRecipient(session).then(
              () => callback(smtpError(550, `5.1.1 <${address.address}>: no such user here`)),
              (closing: Error) => callback(closing),
            );
          else if (error instanceof QuotaExceededError) callback(smtpError(552, `5.2.2 <${address.address}>: mailbox full`));
          else callback(temporaryFailure(error));
        },
      );
    },
    onData(stream, session, callback) {
      const envelopeRecipients = session.envelope.rcptTo.map((recipient) => recipient.address);
      intake.accept({ content: stream, envelopeRecipients, quota: 'refuse-if-all', origin: originOf(session) }).then(
        (accepted) => {
          inboundTotal.inc({ channel: 'smtp', outcome: 'accepted', reason: 'accepted' });
          callback(null, `2.0.0 queued as ${accepted.inboundId}`);
        },
        (error: unknown) => {
          refused(refusalReason(error));
          if (error instanceof MessageTooLargeError) callback(smtpError(552, `5.3.4 ${error.message}`));
          else if (error instanceof QuotaExceededError) callback(smtpError(552, `5.2.2 ${error.message}`));
          else if (error instanceof DmarcRejectedError || error instanceof SpamRejectedError) callback(smtpError(550, `5.7.1 ${error.message}`));
          else if (error instanceof InboundRejectedError) callback(smtpError(554, `5.6.0 ${error.message}`));
          else callback(temporaryFailure(error));
        },
      );
    },
  });
}

/** Who handed the message over, as the session knows it: what its checks and Received header are made from. */
function originOf(session: SMTPServerSession): InboundOrigin {
  const mailFrom = session.envelope.mailFrom;
  return { channel: 'smtp', ip: session.remoteAddress, helo: session.hostNameAppearsAs ?? '', sender: mailFrom ? mailFrom.address : '', tls: tlsOf(session) };
}

/** The TLS version and cipher of a session over TLS (STARTTLS or implicit); smtp-server keeps the socket's getCipher(). */
function tlsOf(session: SMTPServerSession): TlsUse | undefined {
  const cipher = (session.secure ? session.tlsOptions : false) as { version?: string; name?: string; standardName?: string } | false | undefined;
  if (!cipher) return undefined;
  return { protocol: cipher.version ?? 'TLS', cipher: cipher.standardName ?? cipher.name ?? 'unknown' };
}

/** MAIL FROM's SIZE= (RFC 1870), the size the sender says its message has; 0 when it did not say. */
function declaredSize(mailFrom: SMTPServerAddress | false): number {
  // smtp-server gives `args: false` to a command without parameters.
  const args = (mailFrom ? mailFrom.args : undefined) as { SIZE?: string } | false | undefined;
  const size = Number((args && args.SIZE) ?? 0);
  return Number.isSafeInteger(size) && size > 0 ? size : 0;
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
