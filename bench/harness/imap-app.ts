import { builtApp, portTaken } from './bench-apps';
import { startService, type ChildService } from './child-service';
import { ImapWireClient } from './imap-wire-client';

/** Away from `npm start`'s 1143/1993 and its ops port, so the demo's IMAP app is never the one measured. */
export const IMAP_BENCH_PORT = 2943;

/**
 * Starts tried before giving up: the app waits a second for each of its Redis connections to be ready
 * (libs/redis whenReady), which a machine loaded by other work (two cores, load 15) misses now and then.
 */
const START_ATTEMPTS = 3;

/** Sessions of one user the bench opens at once: the app's per-user limit is raised to this (its highest allowed). */
export const IMAP_BENCH_SESSIONS_PER_USER = 1000;

/**
 * The built IMAP app (dist/) on the bench's port: sign-in without TLS (a loopback bench, as the demo allows),
 * its per-user and per-address connection limits raised for a thousand sessions of one user from one address,
 * its storage and demo setting those of the read API whose data it reads, its live events on `queuePrefix`.
 */
export async function startImapApp(options: { storage: Record<string, string>; queuePrefix: string }): Promise<ChildService> {
  if (await portTaken(IMAP_BENCH_PORT)) throw new Error(`port ${IMAP_BENCH_PORT} is taken; stop what listens there (an IMAP app left over from a run?)`);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (attempt === START_ATTEMPTS || !/Redis is not connected/.test((error as Error).message)) throw error;
    }
  }
}

function startOnce(options: { storage: Record<string, string>; queuePrefix: string }): Promise<ChildService> {
  return startService({
    name: 'the IMAP app',
    args: ['--enable-source-maps', builtApp('imap')],
    env: {
      ...options.storage,
      QUEUE_PREFIX: options.queuePrefix,
      IMAP_HOST: '127.0.0.1',
      IMAP_PORT: String(IMAP_BENCH_PORT),
      IMAP_TLS_CERT: undefined,
      IMAP_TLS_KEY: undefined,
      IMAP_ALLOW_PLAINTEXT: 'true',
      IMAP_MAX_CONNECTIONS_PER_USER: String(IMAP_BENCH_SESSIONS_PER_USER),
      IMAP_MAX_CONNECTIONS_PER_ADDRESS: String(2 * IMAP_BENCH_SESSIONS_PER_USER),
      OPS_PORT: '0',
    },
    // Loading the app took 20-25 s on the loaded two cores it was measured on.
    startTimeoutMs: 90_000,
    ready: async () => {
      try {
        (await ImapWireClient.connect(IMAP_BENCH_PORT)).close();
        return true;
      } catch {
        return false;
      }
    },
  });
}
