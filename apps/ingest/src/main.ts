import 'reflect-metadata';
import { listenForOperators } from '@letterbox/nest-infrastructure';
import { exitOnStartupFailure, loggerFor, nameProcess, startProcessMetrics } from '@letterbox/observability';
import { loadIngestConfig } from './ingest.config';
import { startIngest } from './start-ingest';

nameProcess('ingest');
startProcessMetrics('ingest');

async function main(): Promise<void> {
  const config = loadIngestConfig();
  const ingest = await startIngest(config);
  const ops = await listenForOperators(ingest.http, config);
  loggerFor('process').info(
    `ingest: HTTP on http://${config.INGEST_HOST}:${ingest.httpPort}/v2/inbound, SMTP on ${config.INGEST_HOST}:${ingest.smtpPort}${ingest.smtpsPort ? `, SMTPS on ${config.INGEST_HOST}:${ingest.smtpsPort}` : ''}; /metrics on ${config.OPS_HOST}:${ops.port}`,
  );
}

main().catch((error: unknown) => exitOnStartupFailure('ingest', error));
