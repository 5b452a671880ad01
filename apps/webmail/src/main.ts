import { readFileSync } from 'node:fs';
import { exitOnStartupFailure, loggerFor, nameProcess, rootLogger, startOpsServer, startProcessMetrics } from '@letterbox/observability';
import { loadWebmailConfig } from './webmail.config';
import { createWebmailServer, upstreamChecks } from './webmail-server';

nameProcess('webmail');
startProcessMetrics('webmail');

async function start(): Promise<void> {
  const config = loadWebmailConfig();
  const app = await createWebmailServer({
    staticDir: config.WEBMAIL_STATIC_DIR,
    readApiUrl: config.READ_API_URL,
    sendApiUrl: config.SEND_API_URL,
    eventStreams: { maxStreams: config.WEBMAIL_MAX_EVENT_STREAMS, maxStreamsPerClient: config.WEBMAIL_MAX_EVENT_STREAMS_PER_CLIENT },
    tls:
      config.WEBMAIL_TLS_CERT && config.WEBMAIL_TLS_KEY
        ? { cert: readFileSync(config.WEBMAIL_TLS_CERT, 'utf8'), key: readFileSync(config.WEBMAIL_TLS_KEY, 'utf8') }
        : undefined,
    // Warnings only (an API that did not answer): a line per static file would drown them.
    loggerInstance: rootLogger().child({ component: 'http' }, { level: 'warn' }),
  });
  await app.listen({ port: config.WEBMAIL_PORT, host: config.WEBMAIL_HOST });
  const ops = await startOpsServer({
    host: config.OPS_HOST,
    port: config.OPS_PORT,
    checks: upstreamChecks({ readApiUrl: config.READ_API_URL, sendApiUrl: config.SEND_API_URL }),
  });
  loggerFor('process').info(
    `webmail on ${config.WEBMAIL_TLS_CERT ? 'https' : 'http'}://${config.WEBMAIL_HOST}:${config.WEBMAIL_PORT} (read API ${config.READ_API_URL.origin}, send API ${config.SEND_API_URL.origin}; /metrics on ${config.OPS_HOST}:${ops.port})`,
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      Promise.all([app.close(), ops.close()]).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

start().catch((error: unknown) => exitOnStartupFailure('webmail', error));
