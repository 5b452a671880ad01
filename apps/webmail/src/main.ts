import { ConfigError } from '@letterbox/config';
import { loadWebmailConfig } from './webmail.config';
import { createWebmailServer } from './webmail-server';

async function start(): Promise<void> {
  const config = loadWebmailConfig();
  const app = await createWebmailServer({
    staticDir: config.WEBMAIL_STATIC_DIR,
    readApiUrl: config.READ_API_URL,
    sendApiUrl: config.SEND_API_URL,
    eventStreams: { maxStreams: config.WEBMAIL_MAX_EVENT_STREAMS, maxStreamsPerClient: config.WEBMAIL_MAX_EVENT_STREAMS_PER_CLIENT },
    // Warnings only (an API that did not answer): a line per static file would drown them.
    logger: { level: 'warn' },
  });
  await app.listen({ port: config.WEBMAIL_PORT, host: config.WEBMAIL_HOST });
  console.warn(`webmail on http://${config.WEBMAIL_HOST}:${config.WEBMAIL_PORT} (read API ${config.READ_API_URL.origin}, send API ${config.SEND_API_URL.origin})`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

start().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `webmail cannot start. ${error.message}` : `webmail cannot start. ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
