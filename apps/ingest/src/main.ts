import 'reflect-metadata';
import { ConfigError } from '@letterbox/config';
import { loadIngestConfig } from './ingest.config';
import { startIngest } from './start-ingest';

async function main(): Promise<void> {
  const config = loadIngestConfig();
  const ingest = await startIngest(config);
  console.warn(`ingest: HTTP on http://${config.INGEST_HOST}:${ingest.httpPort}/v2/inbound, SMTP on ${config.INGEST_HOST}:${ingest.smtpPort}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `ingest cannot start. ${error.message}` : error);
  process.exit(1);
});
