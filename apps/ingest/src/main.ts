import 'reflect-metadata';
import { exitOnStartupFailure, loggerFor, nameProcess, startProcessMetrics } from '@letterbox/observability';
import { loadIngestConfig } from './ingest.config';
import { startIngest } from './start-ingest';

nameProcess('ingest');
startProcessMetrics('ingest');

async function main(): Promise<void> {
  const config = loadIngestConfig();
  const ingest = await startIngest(config);
  loggerFor('process').info(
    `ingest: HTTP on http://${config.INGEST_HOST}:${ingest.httpPort}/v2/inbound, SMTP on ${config.INGEST_HOST}:${ingest.smtpPort}${ingest.smtpsPort ? `, SMTPS on ${config.INGEST_HOST}:${ingest.smtpsPort}` : ''}`,
  );
}

main().catch((error: unknown) => exitOnStartupFailure('ingest', error));
