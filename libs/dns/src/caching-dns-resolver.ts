import { LRUCache } from 'lru-cache';
import { isDnsRecordType, type DnsRecordType, type DnsResolve } from './dns-answers';
import { dnsError, isDnsError, type DnsError } from './dns-error';
import { exchange } from './dns-exchange';
import { nameServers, type NameServer } from './name-servers';
import { readAnswer, type LookupOutcome } from './read-answer';
import { isQueryableName } from './queryable-name';

export interface CachingDnsResolverOptions {
  /** `host[:port]` of each server, all asked at once; none: the system's. */
  servers?: string[];
  /** One lookup's limit, UDP and the TCP retry together; past it the lookup fails with ETIMEOUT. */
  timeoutMs: number;
  /** Answers kept; 10,000 unless given. */
  maxEntries?: number;
}

/** Whatever the number of entries, the answers kept take no more than about this much memory (a TXT answer may be 64 KB). */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * A DNS resolver for mail authentication: `resolve` answers like dns.promises.resolve (and fails with
 * its error codes) but keeps each answer for its TTL, and "no such record" answers briefly, so the
 * SPF, DKIM and DMARC records of a busy sender are asked once, not for every message. Lookups of the
 * same record while one is under way share it. Each lookup ends within `timeoutMs`, answered or
 * not: a slow server costs a message a temperror, never a stall.
 */
export class CachingDnsResolver {
  private readonly servers: NameServer[];
  private readonly timeoutMs: number;
  private readonly answers: LRUCache<string, LookupOutcome>;
  private readonly inFlight = new Map<string, Promise<LookupOutcome>>();

  constructor(options: CachingDnsResolverOptions) {
    this.servers = nameServers(options.servers ?? []);
    if (this.servers.length === 0) throw new Error('no DNS servers: DNS_SERVERS is empty and the system names none');
    this.timeoutMs = options.timeoutMs;
    this.answers = new LRUCache({ max: options.maxEntries ?? 10_000, maxSize: MAX_CACHE_BYTES, sizeCalculation: estimateBytes });
  }

  /** An arrow function: mailauth calls its resolver unbound. */
  readonly resolve: DnsResolve = async (name, rrtype) => {
    if (!isDnsRecordType(rrtype))
      throw Object.assign(new TypeError(`The argument 'rrtype' is invalid. Received '${rrtype}'`), { code: 'ERR_INVALID_ARG_VALUE' });
    const question = name.toLowerCase().replace(/\.$/, '');
    if (!isQueryableName(question)) throw dnsError('EBADNAME', rrtype, name);
    // Each caller gets its own error and answer: mailauth writes on the errors it catches.
    const outcome = await this.outcome(question, rrtype).catch((error: DnsError) => {
      throw dnsError(error.code, rrtype, name);
    });
    if ('error' in outcome) throw dnsError(outcome.error.code, rrtype, name);
    return structuredClone(outcome.answer);
  };

  private outcome(name: string, type: DnsRecordType): Promise<LookupOutcome> {
    const key = `${type} ${name}`;
    const known = this.answers.get(key);
    if (known) return Promise.resolve(known);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.ask(name, type)
        .then((outcome) => {
          if (outcome.ttlSeconds > 0) this.answers.set(key, outcome, { ttl: outcome.ttlSeconds * 1000 });
          return outcome;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** Every server at once, the first answer taken and the other queries cut; when none answers, the first server's failure. */
  private async ask(name: string, type: DnsRecordType): Promise<LookupOutcome> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(dnsError('ETIMEOUT', type, name)), this.timeoutMs);
    try {
      return await Promise.any(this.servers.map(async (server) => readAnswer(await exchange(server, name, type, controller.signal), name, type)));
    } catch (error) {
      const [first] = (error as AggregateError).errors;
      throw isDnsError(first) ? first : dnsError(networkCode(first), type, name);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }
}

/** A server not listening is told apart; any other failure to talk to it is a bad response. */
const networkCode = (error: unknown) => ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED' ? 'ECONNREFUSED' : 'EBADRESP');

/** JavaScript strings take two bytes a character. */
const estimateBytes = (outcome: LookupOutcome) => 2 * JSON.stringify('answer' in outcome ? outcome.answer : outcome.error.code).length + 128;
