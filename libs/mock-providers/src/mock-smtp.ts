import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { AccountCounters, type AccountCounts } from './account-counters';
import { sendBounce } from './bounce-sender';
import { bouncesAt } from './delivery-status-notice';
import { OpenSockets } from './open-sockets';
import { ReceivedMails, type MailFilter, type ReceivedMail, type ReceivedOverTls } from './received-mails';
import { selfSignedCertificate, type CertificateAndKey } from './self-signed-certificate';
import { DEFAULT_SMTP_BEHAVIOUR, smtpBehaviourPatchSchema, smtpBehaviourSchema, type SmtpBehaviour, type SmtpBehaviourPatch } from './smtp-behaviour';
import { rollInjectedFailure } from './smtp-outcome';
import { smtpReply } from './smtp-reply';
import { TokenBuckets } from './token-buckets';
import { sendingAccount } from './sending-account';

export interface MockSmtpOptions extends SmtpBehaviourPatch {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** What STARTTLS presents; a certificate of its own for 127.0.0.1 and localhost unless given; false: no STARTTLS. */
  tls?: CertificateAndKey | false;
}

/**
 * A stand-in for the SMTP provider: slow to accept, rate limited per account, failing on
 * demand; mail to `@bounce.example` is accepted, then bounced (a DSN) to its envelope sender
 * through Letterbox's intake (`bounceIntake`).
 */
export interface MockSmtp {
  readonly port: number;
  /** Changes some settings, validated (a bad value throws a ZodError); returns them all. */
  configure(patch: SmtpBehaviourPatch): SmtpBehaviour;
  config(): SmtpBehaviour;
  /** The kept accepted mails, oldest first. */
  messages(filter?: MailFilter): ReceivedMail[];
  counts(): Record<string, AccountCounts>;
  /** Forgets mails, counters and rate limit state; keeps the settings. */
  reset(): void;
  /** Stops listening and cuts every open client connection. */
  close(): Promise<void>;
}

type DataReply = (error?: Error | null, message?: string) => void;

export async function startMockSmtp(options: MockSmtpOptions): Promise<MockSmtp> {
  const { port, host = '127.0.0.1', tls, ...behaviour } = options;
  const mock = new MockSmtpServer(behaviour, tls ?? (await ownCertificate()));
  await mock.listen(port, host);
  return mock;
}

let ownCertificateMade: Promise<CertificateAndKey> | undefined;

/** Made once per process: a test starting many mocks need not wait for a new key each time. */
function ownCertificate(): Promise<CertificateAndKey> {
  ownCertificateMade ??= selfSignedCertificate(['localhost', '127.0.0.1']);
  return ownCertificateMade;
}

class MockSmtpServer implements MockSmtp {
  private behaviour = DEFAULT_SMTP_BEHAVIOUR;
  private listeningPort = 0;
  private readonly received = new ReceivedMails();
  private readonly counters = new AccountCounters();
  private readonly buckets = new TokenBuckets();
  private readonly smtp: SMTPServer;
  private readonly sockets: OpenSockets;

  /** The TLS of each session that did STARTTLS, as negotiated (smtp-server's tlsOptions give the cipher's oldest protocol). */
  private readonly tlsOf = new WeakMap<SMTPServerSession, ReceivedOverTls>();

  constructor(behaviour: SmtpBehaviourPatch, tls: CertificateAndKey | false) {
    this.smtp = new SMTPServer({
      secure: false,
      ...(tls ? { key: tls.key, cert: tls.cert } : { disabledCommands: ['STARTTLS'] }),
      authOptional: true,
      // A stand-in for a provider: its clients may sign in before STARTTLS, or without it.
      allowInsecureAuth: true,
      disableReverseLookup: true,
      logger: false,
      onAuth: (auth, _session, done) => done(null, { user: auth.username }),
      onSecure: (socket, session, done) => {
        const tlsSocket = socket as TLSSocket;
        this.tlsOf.set(session, { protocol: tlsSocket.getProtocol() ?? 'unknown', cipher: tlsSocket.getCipher().name });
        done();
      },
      // Refused at MAIL FROM too, so that pooled connections opened before see the outage.
      onConnect: (_session, done) => done(this.unavailable()),
      onMailFrom: (_address, _session, done) => done(this.unavailable()),
      onRcptTo: (address, _session, done) =>
        done(
          this.behaviour.refusedRecipients.includes(address.address.toLowerCase()) ? smtpReply(550, `5.1.1 <${address.address}>: no such mailbox`) : undefined,
        ),
      onData: (stream, session, reply) => this.receive(stream, session, reply),
    });
    // Clients that reset or time out are their own business; unhandled, the 'error' event would end the process.
    this.smtp.on('error', () => undefined);
    this.sockets = new OpenSockets(this.smtp.server);
    this.configure(behaviour);
  }

  get port(): number {
    return this.listeningPort;
  }

  listen(port: number, host: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.smtp.server.once('error', reject);
      this.smtp.listen(port, host, () => {
        this.smtp.server.off('error', reject);
        this.listeningPort = (this.smtp.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  configure(patch: SmtpBehaviourPatch): SmtpBehaviour {
    const changes = Object.entries(smtpBehaviourPatchSchema.parse(patch)).filter(([, value]) => value !== undefined);
    this.behaviour = smtpBehaviourSchema.parse({ ...this.behaviour, ...Object.fromEntries(changes) });
    // smtp-server reads it for every EHLO and every DATA.
    this.smtp.options.size = this.behaviour.maxMessageBytes;
    this.received.keepLatest(this.behaviour.keepMessages);
    return this.config();
  }

  config(): SmtpBehaviour {
    return { ...this.behaviour };
  }

  messages(filter?: MailFilter): ReceivedMail[] {
    return this.received.list(filter);
  }

  counts(): Record<string, AccountCounts> {
    return this.counters.snapshot();
  }

  reset(): void {
    this.received.clear();
    this.counters.clear();
    this.buckets.clear();
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.smtp.close(resolve);
      this.sockets.destroyAll();
    });
  }

  private unavailable(): Error | undefined {
    return this.behaviour.accepting ? undefined : smtpReply(421, '4.3.2 Service not available');
  }

  private receive(stream: SMTPServerDataStream, session: SMTPServerSession, reply: DataReply): void {
    const chunks: Buffer[] = [];
    // Past the limit the rest is only drained, so an oversize mail costs no memory.
    stream.on('data', (chunk: Buffer) => {
      if (!stream.sizeExceeded) chunks.push(chunk);
    });
    stream.once('end', () => {
      const answer = stream.sizeExceeded
        ? () => reply(smtpReply(552, `5.3.4 Message exceeds the limit of ${this.behaviour.maxMessageBytes} bytes`))
        : this.decide(session, Buffer.concat(chunks), reply);
      // Unreferenced: a reply still waiting must not keep a closing process alive.
      setTimeout(answer, this.behaviour.latencyMs).unref();
    });
  }

  /**
   * Decides the mail's fate now, when its DATA is in, and returns the answer to give after
   * the latency. The answer is also when it is counted and kept, so what the mock records
   * is what clients were told.
   */
  private decide(session: SMTPServerSession, raw: Buffer, reply: DataReply): () => void {
    const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    const to = session.envelope.rcptTo.map((recipient) => recipient.address);
    const account = sendingAccount(session.user, raw, from);
    const outcome = this.buckets.hasToken(account, this.behaviour) ? rollInjectedFailure(this.behaviour) : 'rateLimited';
    // One token per accepted mail: a failed one may be retried without paying twice.
    if (outcome === 'accepted') this.buckets.take(account, this.behaviour);
    return () => {
      this.counters.add(account, outcome);
      switch (outcome) {
        case 'rateLimited':
          return reply(smtpReply(451, `4.7.1 Rate limit exceeded for ${account}, try again later`));
        case 'tempFailed':
          return reply(smtpReply(451, '4.3.0 Temporary failure'));
        case 'permFailed':
          return reply(smtpReply(550, '5.7.1 Message rejected permanently'));
        case 'dropped':
          return this.sockets.of(session)?.destroy();
        case 'accepted': {
          const id = randomUUID();
          const tls = this.tlsOf.get(session) ?? null;
          this.received.add({ id, envelope: { from, to }, account, acceptedAt: Date.now(), tls, raw }, this.behaviour.keepMessages);
          reply(null, `2.0.0 Ok: queued as ${id}`);
          const bouncing = to.filter(bouncesAt);
          // A bounce goes to a sender, never to the null sender (a bounce of a bounce).
          if (bouncing.length > 0 && from && this.behaviour.bounceIntake) void sendBounce(this.behaviour.bounceIntake, from, bouncing, raw);
          return;
        }
      }
    };
  }
}
