import { dkimSign } from 'mailauth/lib/dkim/sign';
import { TEST_DKIM_KEYS } from '@letterbox/mock-providers/testing';
import { inboundPath, newsletterMessage } from './inbound-messages';

/** The outside domain the checked newsletters come from: the mock DNS publishes its SPF (127.0.0.1), DKIM keys and DMARC p=reject. */
const SENDER = 'news@pass.example';

/**
 * Where the gateway says each newsletter came from (POST /v2/inbound's query): the server
 * pass.example's SPF allows, so every check of the intake runs (SPF, both DKIM signatures,
 * DMARC) against the mock DNS, and passes.
 */
export const CHECKED_ORIGIN = `ip=127.0.0.1&helo=mail.pass.example&sender=${encodeURIComponent(SENDER)}`;

/**
 * A newsletter to each recipient from pass.example, signed with its RSA and Ed25519 test
 * keys once, before any load: each request adds its own Message-ID above the signatures,
 * which leaves them valid, as Message-ID is not among the signed headers.
 */
export class SignedNewsletters {
  private constructor(private readonly signed: Map<string, string>) {}

  static async for(recipients: string[]): Promise<SignedNewsletters> {
    const keys = [TEST_DKIM_KEYS.passRsa, TEST_DKIM_KEYS.passEd25519];
    const signed = await Promise.all(
      recipients.map(async (recipient, issue) => {
        const message = newsletterMessage(recipient, undefined, issue, `"Pass News" <${SENDER}>`);
        const { signatures, errors } = await dkimSign(message, { ...keys[0], signTime: new Date(), signatureData: keys.map((key) => ({ ...key })) });
        if (errors.length > 0) throw new Error(`the bench newsletter to ${recipient} could not be signed: ${String(errors[0])}`);
        return [recipient, signatures + message] as const;
      }),
    );
    return new SignedNewsletters(new Map(signed));
  }

  /** The request path of a newsletter to `recipient`, with where it came from. */
  path(recipient: string): string {
    return `${inboundPath(recipient)}&${CHECKED_ORIGIN}`;
  }

  /** The newsletter to `recipient`, under a Message-ID of its own. */
  body(recipient: string, messageId: string): string {
    const signed = this.signed.get(recipient);
    if (signed === undefined) throw new Error(`no signed newsletter for ${recipient}`);
    return `Message-ID: <${messageId}>\r\n${signed}`;
  }
}
