import { createHmac, timingSafeEqual } from 'node:crypto';

/** Days an SRS address is honoured after it was made (postsrsd's default). */
export const SRS_MAX_AGE_DAYS = 21;

const DAY_MS = 86_400_000;
/** The timestamp is the day number modulo this, two base-32 characters (libsrs2's time slots). */
const TIME_SLOTS = 1024;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** 40 bits of HMAC, in lower-case base 32: some servers lower-case a local part on the way back. */
const HASH_CHARACTERS = 8;
const SRS0 = /^srs0=[a-z2-7]{8}=[a-z2-7]{2}=[^=@\s]+=[^@\s]+@[^@\s]+$/;

/** Whether an address has an SRS address's shape (its hash unchecked): the intake checks these at RCPT. */
export function looksLikeSrsAddress(address: string): boolean {
  return /^srs0=[^@]+@[^@]+$/i.test(address.trim());
}

/**
 * The Sender Rewriting Scheme as Postfix with postsrsd writes it: a redirected message goes out
 * from `SRS0=HHHHHHHH=TT=<sender's domain>=<sender's local part>@<our domain>`, so the receiver's
 * SPF check is of our domain, which sends it. HHHHHHHH is an HMAC (SRS_SECRET) of the rest and TT
 * the day it was made: a bounce to the address goes back to the original sender for
 * SRS_MAX_AGE_DAYS, and no one makes an address of their own that we would relay to.
 */
export class SrsAddresses {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The address a message from `sender` goes out from, redirected through `ourDomain`. */
  forward(sender: string, ourDomain: string): string {
    const at = sender.lastIndexOf('@');
    const local = sender.slice(0, at);
    const domain = sender.slice(at + 1).toLowerCase();
    const timestamp = timestampOf(Math.floor(this.now() / DAY_MS));
    return `SRS0=${this.hash(timestamp, domain, local)}=${timestamp.toUpperCase()}=${domain}=${local}@${ourDomain.toLowerCase()}`;
  }

  /** The original sender an SRS address names, or why it is refused: not one, altered, or too old. */
  reverse(address: string): { sender: string } | { refused: string } {
    const given = address.trim();
    if (!SRS0.test(given.toLowerCase())) return { refused: 'not an SRS address' };
    const [, hash, timestamp, domain, ...local] = given.slice(0, given.lastIndexOf('@')).split('=');
    // The hash is of the lower-cased address: only case may change on the way back, and the local part keeps its own.
    const expected = this.hash(timestamp, domain.toLowerCase(), local.join('='));
    if (!timingSafeEqual(Buffer.from(hash.toLowerCase()), Buffer.from(expected))) return { refused: 'its hash does not match' };
    const age = (((Math.floor(this.now() / DAY_MS) - dayOf(timestamp.toLowerCase())) % TIME_SLOTS) + TIME_SLOTS) % TIME_SLOTS;
    if (age > SRS_MAX_AGE_DAYS) return { refused: `it is older than ${SRS_MAX_AGE_DAYS} days` };
    return { sender: `${local.join('=')}@${domain.toLowerCase()}` };
  }

  private hash(timestamp: string, domain: string, local: string): string {
    const digest = createHmac('sha256', this.secret).update(`${timestamp.toLowerCase()}=${domain}=${local.toLowerCase()}`).digest();
    let hash = '';
    for (let index = 0; hash.length < HASH_CHARACTERS; index++) hash += BASE32[digest[index] & 31];
    return hash;
  }
}

function timestampOf(day: number): string {
  const slot = day % TIME_SLOTS;
  return BASE32[slot >> 5] + BASE32[slot & 31];
}

function dayOf(timestamp: string): number {
  return (BASE32.indexOf(timestamp[0]) << 5) | BASE32.indexOf(timestamp[1]);
}
