import { CachingDnsResolver, type DnsResolve } from '@letterbox/dns';
import type { MailVerifierOptions } from '@letterbox/mail-auth';
import type { IngestConfig } from './ingest.config';

/**
 * How the intake checks incoming mail, from the settings, its DNS lookups made by `resolve`
 * (DNS_SERVERS, or the system's, with their answers cached within their TTL, by default); undefined when INGEST_VERIFY_SENDERS is off.
 */
export function mailVerificationOf(
  config: IngestConfig,
  resolve: DnsResolve = new CachingDnsResolver({ servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS, maxEntries: config.DNS_CACHE_ENTRIES }).resolve,
): Omit<MailVerifierOptions, 'isOwnAddress'> | undefined {
  if (!config.INGEST_VERIFY_SENDERS) return undefined;
  return {
    authservId: config.INGEST_AUTHSERV_ID ?? config.INGEST_SMTP_HOSTNAME,
    hostname: config.INGEST_SMTP_HOSTNAME,
    resolve,
    dnsBudgetMs: config.INGEST_DNS_BUDGET_MS,
    dmarcRejectAs: config.INGEST_DMARC_REJECT,
    trustedAuthservId: config.INGEST_TRUSTED_AUTHSERV_ID,
  };
}
