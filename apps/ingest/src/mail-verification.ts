import { Resolver } from 'node:dns/promises';
import type { DnsResolve, MailVerifierOptions } from '@letterbox/mail-auth';
import type { IngestConfig } from './ingest.config';

/**
 * How the intake checks incoming mail, from the settings, its DNS lookups made by `resolve`
 * (the system's servers by default); undefined when INGEST_VERIFY_SENDERS is off.
 */
export function mailVerificationOf(
  config: IngestConfig,
  resolve: DnsResolve = systemResolver(config.DNS_TIMEOUT_MS),
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

/** The system's DNS servers, each lookup tried once and given up after `timeoutMs` (ETIMEOUT). */
function systemResolver(timeoutMs: number): DnsResolve {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  return (name, rrtype) => resolver.resolve(name, rrtype);
}
