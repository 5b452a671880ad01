import { ImapFlow } from 'imapflow';
import { freePort, testQueuePrefix, type TestUser } from '@letterbox/testing';
import { loadImapConfig, type ImapConfig } from '../imap.config';

/** The environment of an IMAP app on a free local port without TLS, signing in in the clear (as the demo does), with a queue namespace of its own. */
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

/** The configuration of such an app. */
export async function plaintextImapConfig(settings: NodeJS.ProcessEnv = {}): Promise<ImapConfig> {
  return loadImapConfig(await plaintextImapEnv(settings));
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
