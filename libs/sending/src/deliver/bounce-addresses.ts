import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a bounce address names: the send, and for a message to one recipient, which of the send's (recipientsOf order). */
export interface BounceTarget {
  sendId: number;
  recipientIndex?: number;
}

/** 48 bits of HMAC: a forged bounce names a send by guessing 2^48 values, not by counting send ids. */
const MAC_HEX = 12;
// Lower-case only: some servers lower-case the local part on the way back.
const BOUNCE_ADDRESS = /^bounces\+([0-9a-z]{1,11})(?:\.([0-9a-z]{1,6}))?\.([0-9a-f]{12})@([^@\s]+)$/;

/** Whether an address has a bounce address's shape (its MAC unchecked): the intake takes mail for these in its domains, the bounce stage checks them. */
export function looksLikeBounceAddress(address: string): boolean {
  return /^bounces\+[^@]+@[^@]+$/i.test(address.trim());
}

/**
 * Each send's envelope sender (VERP): `bounces+<send>[.<recipient>].<mac>@<domain>`, numbers in
 * base 36, so a bounce coming back says which send (and which recipient) failed without reading
 * the bounce's text. The HMAC (BOUNCE_TOKEN_SECRET) makes it tamper-evident: no one marks
 * another's send bounced by writing to an address of their own making.
 */
export class BounceAddresses {
  constructor(private readonly secret: string) {}

  address(target: BounceTarget, domain: string): string {
    const lowerDomain = domain.toLowerCase();
    const token = target.recipientIndex === undefined ? target.sendId.toString(36) : `${target.sendId.toString(36)}.${target.recipientIndex.toString(36)}`;
    return `bounces+${token}.${this.mac(token, lowerDomain)}@${lowerDomain}`;
  }

  /** The send (and recipient) a bounce address names, or undefined when it is no bounce address of ours or was altered. */
  parse(address: string): BounceTarget | undefined {
    const match = BOUNCE_ADDRESS.exec(address.trim().toLowerCase());
    if (!match) return undefined;
    const [, send, recipient, mac, domain] = match;
    const token = recipient === undefined ? send : `${send}.${recipient}`;
    if (!timingSafeEqual(Buffer.from(mac), Buffer.from(this.mac(token, domain)))) return undefined;
    return recipient === undefined ? { sendId: parseInt(send, 36) } : { sendId: parseInt(send, 36), recipientIndex: parseInt(recipient, 36) };
  }

  private mac(token: string, domain: string): string {
    return createHmac('sha256', this.secret).update(`${token}@${domain}`).digest('hex').slice(0, MAC_HEX);
  }
}
