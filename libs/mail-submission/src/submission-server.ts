import type { Readable } from 'node:stream';
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerSession } from 'smtp-server';
import {
  AccountDisabledError,
  AccountSetupRequiredError,
  AppPasswordRequiredError,
  TooManyWrongPasswordsError,
  WrongCredentialsError,
  type MailClientUser,
  type SignInMailClient,
} from '@letterbox/accounts';
import { MessageTooLargeError } from '@letterbox/ingest';
import type { TlsKeyPair } from '@letterbox/mail-listeners';
import { loggerFor } from '@letterbox/observability';
import { IdempotencyKeyReusedError, NotSendersAddressError, QuotaExceededError, SenderGoneError } from '@letterbox/sending';
import { HeaderBlockTooLongError } from './header-block-split';
import type { MailSubmission } from './mail-submission';
import { MissingFromError } from './submission-errors';

const logger = loggerFor('submission');

export interface SubmissionServerOptions {
  /** The name in the greeting and replies. */
  hostname: string;
  /** Connections open at once, from everyone; past it a client is told to come back (421). */
  maxClients: number;
  /** Recipients of one message; past it 452. */
  maxRecipients: number;
  /** STARTTLS (and the implicit-TLS twin) with this certificate; none without. */
  tls?: TlsKeyPair;
  /** AUTH in the clear, before STARTTLS: the demo's, for clients that cannot do TLS; never a deployment's. */
  allowPlaintextAuth: boolean;
}

/** The signed-in user of a session, with the addresses MAIL FROM may name. */
interface SessionUser extends MailClientUser {
  addresses: string[];
}

/**
 * The SMTP submission listener (RFC 6409) for Letterbox users' mail clients: AUTH PLAIN or LOGIN with the user's
 * address and password (an app password once two-factor sign-in is on: signInMailClient), only over TLS (STARTTLS,
 * or its implicit-TLS twin) unless `allowPlaintextAuth`. Nothing is taken before AUTH (530). MAIL FROM must be one
 * of the user's addresses (553 5.7.1); the message is handed to MailSubmission, and answered once its send is
 * recorded and queued.
 */
export function createSubmissionServer(signIn: SignInMailClient, submission: MailSubmission, options: SubmissionServerOptions): SMTPServer {
  return new SMTPServer({
    name: options.hostname,
    banner: 'Letterbox submission',
    size: submission.maxMessageBytes,
    maxClients: options.maxClients,
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: options.allowPlaintextAuth,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : { disabledCommands: ['STARTTLS'] }),
    logger: false,
    onAuth(auth: SMTPServerAuthentication, session: SMTPServerSession, callback) {
      signIn({ address: auth.username ?? '', password: auth.password ?? '', clientAddress: session.remoteAddress, protocol: 'smtp' })
        .then(async (user): Promise<SessionUser> => ({ ...user, addresses: await submission.ownAddresses(user) }))
        .then(
          (user) => callback(null, { user }),
          (error: unknown) => callback(authRefusal(error)),
        );
    },
    onMailFrom(address, session, callback) {
      const user = session.user as SessionUser;
      if (user.addresses.includes(address.address.toLowerCase())) return callback();
      callback(smtpError(553, `5.7.1 <${address.address}>: not one of your addresses; send from your own address or one of your aliases`));
    },
    onRcptTo(_address, session, callback) {
      if (session.envelope.rcptTo.length < options.maxRecipients) return callback();
      callback(smtpError(452, `4.5.3 too many recipients: at most ${options.maxRecipients} per message`));
    },
    onData(stream, session, callback) {
      const user = session.user as SessionUser;
      const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
      submission.submit(user, { mailFrom, recipients }, stream).then(
        async (send) => {
          await drained(stream);
          logger.info({ userId: user.id, sendId: send.id, recipients: recipients.length }, `send ${send.id} submitted by a mail client`);
          callback(null, `2.0.0 queued as send ${send.id}`);
        },
        async (error: unknown) => {
          await drained(stream);
          callback(dataRefusal(error));
        },
      );
    },
  });
}

/** Resolves once the client's DATA is read to its end: only then may the reply be given. */
function drained(stream: Readable): Promise<void> {
  if (stream.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.resume();
  });
}

/** RFC 4954's answers: 535 for wrong credentials, 534 when only an app password will do, 454 to come back later. */
function authRefusal(error: unknown): Error {
  if (error instanceof WrongCredentialsError) return smtpError(535, '5.7.8 authentication credentials invalid');
  if (error instanceof AppPasswordRequiredError) return smtpError(534, `5.7.9 ${error.message}`);
  if (error instanceof AccountDisabledError || error instanceof AccountSetupRequiredError) return smtpError(535, `5.7.8 ${error.message}`);
  if (error instanceof TooManyWrongPasswordsError) return smtpError(454, `4.7.0 ${error.message}`);
  logger.error({ err: error }, 'a mail client could not be signed in');
  return smtpError(454, '4.7.0 temporary authentication failure, try again later');
}

function dataRefusal(error: unknown): Error {
  if (error instanceof NotSendersAddressError) return smtpError(553, `5.7.1 ${error.message}`);
  if (error instanceof MissingFromError || error instanceof HeaderBlockTooLongError) return smtpError(550, `5.6.0 ${error.message}`);
  if (error instanceof MessageTooLargeError) return smtpError(552, `5.3.4 ${error.message}`);
  if (error instanceof QuotaExceededError) return smtpError(552, `5.2.2 ${error.message}`);
  if (error instanceof IdempotencyKeyReusedError) return smtpError(550, '5.6.0 another message with this Message-ID was sent already');
  if (error instanceof SenderGoneError) return smtpError(554, `5.7.1 ${error.message}`);
  logger.error({ err: error }, 'a submitted message could not be taken');
  return smtpError(451, '4.3.0 temporary failure, try again later');
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}
