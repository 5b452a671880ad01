import { pipeline, type Readable } from 'node:stream';
import { authenticate, type AuthenticateOptions } from 'mailauth';
import { loggerFor } from '@letterbox/observability';
import { authservIdOf, parseAuthenticationResults } from './authentication-results';
import { budgetedResolver, type DnsResolve } from './dns-budget';
import { filterHeaderFields, HeaderFieldFilter, type HeaderField, type KeepField } from './header-field-filter';
import type { AuthResult, InboundOrigin, MailAction, MailAuthentication } from './mail-authentication';
import { mailResults } from './mailauth-results';
import { receivedHeader } from './received-header';
import { mailAction, senderVerdict, type DmarcRejectAs } from './sender-policy';

const logger = loggerFor('mail-verifier');

/** DKIM signatures checked per message: each costs a DNS lookup and a pass over the body. */
export const MAX_DKIM_SIGNATURES = 10;

export interface MailVerifierOptions {
  /** The authserv-id of Letterbox's Authentication-Results (RFC 8601 §2.5): INGEST_AUTHSERV_ID. */
  authservId: string;
  /** This server's name in the Received header. */
  hostname: string;
  resolve: DnsResolve;
  /** What all DNS lookups of one message may take together. */
  dnsBudgetMs: number;
  /** Whether an address is in one of Letterbox's own domains (an office's). */
  isOwnAddress: (address: string) => Promise<boolean>;
  dmarcRejectAs: DmarcRejectAs;
  /** The authserv-id of the gateway whose results the HTTP intake passes on: INGEST_TRUSTED_AUTHSERV_ID. */
  trustedAuthservId?: string;
}

/** A message to check: in memory, or, when large, a way to read it (each call a new stream from its start). */
export interface MessageToVerify {
  content: Buffer | (() => Readable);
  origin: InboundOrigin;
  /** The From header's address, as the intake read it. */
  from: string | undefined;
  /** The acceptance's id, which the Received header names. */
  inboundId: string;
  receivedAt: Date;
}

export interface Verification {
  authentication: MailAuthentication;
  action: MailAction;
  /** The trace header fields to put before the stored message: Received, Received-SPF, Authentication-Results. */
  trace: Buffer;
}

/**
 * Checks incoming mail with mailauth (SPF for the client and MAIL FROM, every DKIM
 * signature up to MAX_DKIM_SIGNATURES, ARC, DMARC alignment and policy), within a DNS
 * budget per message, and says where it goes and what trace it gets. Whatever the message
 * or DNS does, a verdict comes (temperror when the budget runs out, permerror or neutral
 * for a broken record or signature): only a message that cannot be read fails.
 */
export class MailVerifier {
  constructor(private readonly options: MailVerifierOptions) {}

  /**
   * Keeps every header field of the stored message but an Authentication-Results claiming
   * Letterbox's authserv-id, which only Letterbox may write (RFC 8601 §5).
   */
  readonly keepStored: KeepField = (field) => field.name !== 'authentication-results' || authservIdOf(field.raw.toString('latin1')) !== this.ourId;

  async verify(message: MessageToVerify): Promise<Verification> {
    const { origin } = message;
    const fromDomain = domainOf(message.from);
    const received = receivedHeader(origin, this.options.hostname, message.inboundId, message.receivedAt);
    if (origin.channel === 'local') {
      const authentication: MailAuthentication = { spf: 'none', dkim: 'none', dmarc: 'none', arc: 'none', fromDomain, sender: 'internal' };
      return { authentication, action: { action: 'accept' }, trace: Buffer.from(received) };
    }
    const trusted = origin.channel === 'http' ? this.trustedResults(origin.trustedResults) : undefined;
    const checked = trusted ?? (await this.check(message));
    const claimsColleague = message.from !== undefined && fromDomain !== null && (await this.options.isOwnAddress(message.from));
    const policy = { results: checked.results, dmarcPolicy: checked.dmarcPolicy, claimsColleague, dmarcRejectAs: this.options.dmarcRejectAs };
    const authentication: MailAuthentication = { ...checked.results, fromDomain, sender: senderVerdict(policy) };
    return { authentication, action: mailAction(policy), trace: Buffer.from(received + checked.headers) };
  }

  private get ourId(): string {
    return this.options.authservId.toLowerCase();
  }

  /** The gateway's results, when they are the trusted gateway's, written again under Letterbox's authserv-id. */
  private trustedResults(value: string | undefined): Checked | undefined {
    const trustedId = this.options.trustedAuthservId?.toLowerCase();
    if (!value || !trustedId) return undefined;
    const parsed = parseAuthenticationResults(value);
    if (parsed.authservId !== trustedId) return undefined;
    const results = { spf: 'none', dkim: 'none', dmarc: 'none', arc: 'none', ...parsed.results } satisfies Record<string, AuthResult>;
    const words = (['spf', 'dkim', 'dmarc', 'arc'] as const).map((method) => `${method}=${results[method]} (as checked by ${trustedId})`);
    return { results, dmarcPolicy: parsed.dmarcPolicy, headers: `Authentication-Results: ${this.options.authservId};\r\n ${words.join(';\r\n ')}\r\n` };
  }

  private async check(message: MessageToVerify): Promise<Checked> {
    const { origin } = message;
    const ip = origin.channel === 'local' ? undefined : origin.ip;
    const helo = origin.channel === 'local' ? undefined : origin.helo;
    const sender = origin.channel === 'local' ? undefined : origin.sender;
    const read = readableView(message.content);
    try {
      const options: AuthenticateOptions & RfcLimits = {
        ip,
        helo: helo || undefined,
        sender: sender || undefined,
        mta: this.options.authservId,
        resolver: budgetedResolver(this.options.resolve, this.options.dnsBudgetMs),
        minBitLength: 1024,
        maxResolveCount: 10,
        maxVoidCount: 2,
        disableBimi: true,
      };
      const result = await authenticate(read.view, options);
      return { ...mailResults(result, Boolean(ip)), headers: result.headers };
    } catch (error) {
      // The message could not be read (storage failed): it is not checked, nor accepted.
      if (read.failed()) throw error;
      logger.warn({ err: error, inboundId: message.inboundId }, 'mail checks failed on this message; its results are temperror');
      const results = { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror', arc: 'temperror' } as const;
      return { results, headers: `Authentication-Results: ${this.options.authservId};\r\n spf=temperror; dkim=temperror; dmarc=temperror; arc=temperror\r\n` };
    }
  }
}

/** RFC 7208 §4.6.4's limits on an SPF evaluation's lookups, which mailauth takes but its types do not name. */
interface RfcLimits {
  maxResolveCount: number;
  maxVoidCount: number;
}

interface Checked {
  results: Pick<MailAuthentication, 'spf' | 'dkim' | 'dmarc' | 'arc'>;
  dmarcPolicy?: string;
  /** mailauth's trace fields, each ending in CRLF. */
  headers: string;
}

/**
 * What mailauth reads: the message without the DKIM signatures past the first
 * MAX_DKIM_SIGNATURES (the stored message keeps them), and whether reading it failed.
 */
function readableView(content: MessageToVerify['content']): { view: Buffer | Readable; failed: () => boolean } {
  if (Buffer.isBuffer(content)) return { view: filterHeaderFields(content, firstDkimSignatures()), failed: () => false };
  let failed = false;
  const view = pipeline(content(), new HeaderFieldFilter(firstDkimSignatures()), (error) => {
    if (error) failed = true;
  });
  return { view, failed: () => failed };
}

function firstDkimSignatures(): KeepField {
  let seen = 0;
  return (field: HeaderField) => field.name !== 'dkim-signature' || ++seen <= MAX_DKIM_SIGNATURES;
}

function domainOf(address: string | undefined): string | null {
  const at = address?.lastIndexOf('@') ?? -1;
  return address && at > 0 ? address.slice(at + 1).toLowerCase() || null : null;
}
