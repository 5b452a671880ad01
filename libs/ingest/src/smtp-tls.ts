import type { TLSSocket } from 'node:tls';
import type { SMTPServerOptions } from 'smtp-server';
import type { TlsKeyPair } from '@letterbox/mail-listeners';

/** The SMTP listener's TLS: its certificate, and whether mail may come in the clear. */
export interface SmtpTls extends TlsKeyPair {
  /** MAIL FROM is refused (530) until the client has done STARTTLS. */
  required: boolean;
}

/**
 * The TLS part of the listener's options. Without a certificate there is no STARTTLS:
 * smtp-server's built-in certificate has a published key, so offering it would only
 * pretend. After the handshake the session's `tlsOptions.version` is made the protocol
 * negotiated, not what smtp-server puts there (node's getCipher(): the oldest protocol
 * the cipher exists in, TLSv1.0 for a TLS 1.2 session with a CBC cipher); the
 * `Received` header shows it.
 */
export function smtpTlsOptions(tls: SmtpTls | undefined): Pick<SMTPServerOptions, 'key' | 'cert' | 'disabledCommands' | 'onSecure'> {
  if (!tls) return { disabledCommands: ['AUTH', 'STARTTLS'] };
  return {
    key: tls.key,
    cert: tls.cert,
    disabledCommands: ['AUTH'],
    onSecure(socket, session, callback) {
      // The same object as the connection's own, which every RSET and EHLO copies back into the session.
      if (session.tlsOptions) session.tlsOptions.version = (socket as TLSSocket).getProtocol() ?? session.tlsOptions.version;
      callback();
    },
  };
}

/** Refused at MAIL FROM in the clear when TLS is required: RFC 3207's answer. */
export function clearTextRefusal(tls: SmtpTls | undefined, secure: boolean): Error | undefined {
  if (!tls?.required || secure) return undefined;
  return Object.assign(new Error('5.7.0 Must issue a STARTTLS command first'), { responseCode: 530 });
}
