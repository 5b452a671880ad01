import { readFileSync } from 'node:fs';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { DeliveryWorkerConfig } from './delivery-worker.config';

/**
 * How the worker's SMTP connections to the provider use TLS. STARTTLS whenever the provider
 * offers it; with SMTP_REQUIRE_TLS, a provider that does not is not sent to. Like Postfix's
 * `may` level, opportunistic TLS does not check the certificate (encrypting against a
 * passive listener is better than sending in the clear); with SMTP_TLS_CA it is checked
 * against that CA and the provider's host name, and a mismatch fails the delivery.
 */
export function providerTlsOptions(config: DeliveryWorkerConfig): Pick<SMTPTransport.Options, 'ignoreTLS' | 'requireTLS' | 'tls'> {
  return {
    ignoreTLS: false,
    requireTLS: config.SMTP_REQUIRE_TLS,
    tls: config.SMTP_TLS_CA
      ? { ca: readFileSync(config.SMTP_TLS_CA, 'utf8'), rejectUnauthorized: true, servername: config.SMTP_HOST }
      : { rejectUnauthorized: false },
  };
}
