import { hash, verify } from '@node-rs/argon2';
import { ConcurrencyLimit } from './concurrency-limit';

/**
 * argon2 runs on libuv's thread pool (4 threads by default), which file reads share: a flood
 * of sign-ins hashing on every thread would stall every mail read. One at a time leaves the
 * rest to storage; sign-ins beyond it wait their turn.
 */
const passwordHashing = new ConcurrencyLimit(1);

/** Argon2id with the library's defaults (19 MiB, 2 passes): deliberately slow to guess. */
export function hashPassword(password: string): Promise<string> {
  return passwordHashing.run(() => hash(password));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await passwordHashing.run(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}
