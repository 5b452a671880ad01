/** An RFC 8601 result word, as Authentication-Results writes it. */
export type AuthResult = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'temperror' | 'permerror' | 'policy';

/** What the webmail shows about who sent it. */
export type SenderVerdict =
  /** DMARC pass for the From domain. */
  | 'verified'
  /** Nothing proves or disproves it (DMARC none or temperror, no policy). */
  | 'unverified'
  /** DMARC fail for the From domain. */
  | 'failed'
  /** From is an address of Letterbox's own domains, but the mail came from outside. */
  | 'forged-colleague'
  /** Local delivery from a Letterbox user (never from the intake's outside channels). */
  | 'internal';

/** The checks of an incoming mail, stored with it (`mails.authentication`) and answered on its detail. */
export interface MailAuthentication {
  spf: AuthResult;
  dkim: AuthResult;
  dmarc: AuthResult;
  arc: AuthResult;
  /** The From header's domain, as checked. */
  fromDomain: string | null;
  sender: SenderVerdict;
}

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
