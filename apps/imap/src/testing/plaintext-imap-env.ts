import { freePort, testQueuePrefix } from '@letterbox/testing';

/** The environment of an IMAP app on a free local port without TLS, signing in in the clear: for tests that drive it raw. */
export async function plaintextImapEnv(settings: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  return {
    ...process.env,
    IMAP_HOST: '127.0.0.1',
    IMAP_PORT: String(await freePort()),
    OPS_PORT: '0',
    IMAP_TLS_CERT: '',
    IMAP_TLS_KEY: '',
    IMAP_ALLOW_PLAINTEXT: 'true',
    QUEUE_PREFIX: testQueuePrefix(),
    ...settings,
  };
}
