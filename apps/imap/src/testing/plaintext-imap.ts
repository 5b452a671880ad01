import { ImapFlow } from 'imapflow';
import { freePort, testQueuePrefix, type TestUser } from '@letterbox/testing';
import { loadImapConfig, type ImapConfig } from '../imap.config';

/** The app on a free local port, signing in without TLS (as the demo does), with a queue namespace of its own. */
export async function plaintextImapConfig(): Promise<ImapConfig> {
  return loadImapConfig({
    ...process.env,
    IMAP_HOST: '127.0.0.1',
    IMAP_PORT: String(await freePort()),
    OPS_PORT: '0',
    IMAP_ALLOW_PLAINTEXT: 'true',
    QUEUE_PREFIX: testQueuePrefix(),
  });
}

/** An imapflow client of the user's on that port, idling only when told to. */
export function plaintextFlow(port: number, user: TestUser, options: Partial<ConstructorParameters<typeof ImapFlow>[0]> = {}): ImapFlow {
  return new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    doSTARTTLS: false,
    auth: { user: user.email, pass: user.password },
    logger: false,
    disableAutoIdle: true,
    ...options,
  });
}
