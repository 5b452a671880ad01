import { createHash, randomInt } from 'node:crypto';

/** No 0/o, 1/l/i: read off paper and typed again. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Two groups of five: 50 bits each, guessed by no one within the sign-in limits. */
const GROUP = 5;

/** `count` new recovery codes, such as `k3m9q-ht7wd`. */
export function newRecoveryCodes(count: number): string[] {
  const group = () => Array.from({ length: GROUP }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: count }, () => `${group()}-${group()}`);
}

/** SHA-256 (hex) of the code as typed, whatever its case, spaces or dashes: what is stored. */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256')
    .update(code.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .digest('hex');
}

/** A TOTP code is six digits; anything else sent in its place is taken for a recovery code. */
export const isTimeBasedCode = (code: string) => /^\d{6}$/.test(code);
