import { z } from 'zod';

/** An RFC 8601 result word, as Authentication-Results writes it. */
export const authResultSchema = z.enum(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy']);
export type AuthResult = z.infer<typeof authResultSchema>;

/**
 * What the webmail shows about who sent it:
 * - `verified`: DMARC pass for the From domain;
 * - `unverified`: nothing proves or disproves it (DMARC none or temperror, no policy);
 * - `failed`: DMARC fail for the From domain;
 * - `forged-colleague`: From is an address of Letterbox's own domains, but the mail came from outside;
 * - `internal`: local delivery from a Letterbox user (never from the intake's outside channels).
 */
export const senderVerdictSchema = z.enum(['verified', 'unverified', 'failed', 'forged-colleague', 'internal']);
export type SenderVerdict = z.infer<typeof senderVerdictSchema>;

/**
 * The checks of an incoming mail, stored with it (`mails.authentication`) and answered on its
 * detail: the one definition of the wire type (OpenAPI `MailAuthentication`).
 */
export const mailAuthenticationSchema = z
  .object({
    spf: authResultSchema,
    dkim: authResultSchema,
    dmarc: authResultSchema,
    arc: authResultSchema,
    /** The From header's domain, as checked. */
    fromDomain: z.string().nullable(),
    sender: senderVerdictSchema,
  })
  .meta({ id: 'MailAuthentication' });
export type MailAuthentication = z.infer<typeof mailAuthenticationSchema>;

/** How a message reached the intake, as far as the checks need it. */
export type InboundOrigin =
  | {
      channel: 'smtp';
      /** The connecting address. */
      ip: string;
      /** The name the client gave in EHLO/HELO. */
      helo: string;
      /** MAIL FROM's address; empty for a bounce (MAIL FROM:<>). */
      sender: string;
      /** Present when the session ran over TLS. */
      tls?: TlsUse;
    }
  | {
      channel: 'http';
      /** The address of the mail server the gateway took the message from, when it says. */
      ip?: string;
      helo?: string;
      sender?: string;
      /**
       * The gateway's own Authentication-Results value (`gateway.example; spf=pass …`), taken
       * as the checks' results instead of checking again: only when its authserv-id is the trusted gateway's.
       */
      trustedResults?: string;
    }
  /** Mail from a Letterbox user to colleagues, delivered by Letterbox itself: never checked. */
  | { channel: 'local' };

export interface TlsUse {
  /** `TLSv1.3`, `TLSv1.2`. */
  protocol: string;
  /** The cipher suite's name. */
  cipher: string;
}

/**
 * What the intake does with a checked message: stores it in the inbox, in Spam, or refuses
 * it (a DMARC p=reject failure), with the reason a refusal names.
 */
export type MailAction = { action: 'accept' } | { action: 'spam'; reason: string } | { action: 'reject'; reason: string };
