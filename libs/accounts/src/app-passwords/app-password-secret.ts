import { createHash, randomInt } from 'node:crypto';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Four groups of four letters: 75 bits, guessed by no one within the sign-in limits, and easy to type into a phone. */
const GROUPS = 4;
const GROUP = 4;

/** A new app password, such as `qwer tyui opas dfgh`: shown to the user once, never stored. */
export function newAppPasswordSecret(): string {
  const group = () => Array.from({ length: GROUP }, () => LETTERS[randomInt(LETTERS.length)]).join('');
  return Array.from({ length: GROUPS }, group).join(' ');
}

/** SHA-256 (hex) of an app password as typed, whatever its case or spaces: what is stored. */
export function appPasswordHash(secret: string): string {
  return createHash('sha256').update(secret.toLowerCase().replace(/\s/g, '')).digest('hex');
}

/** Whether a password has an app password's shape, so that it is worth looking up as one. */
export const looksLikeAppPassword = (password: string) => /^[a-z]{16}$/i.test(password.replace(/\s/g, ''));
