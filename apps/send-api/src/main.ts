import 'reflect-metadata';
import { ConfigError } from '@letterbox/config';
import { createSendApi } from './create-send-api';
import { loadSendApiConfig } from './send-api.config';

async function main(): Promise<void> {
  const config = loadSendApiConfig();
  const app = await createSendApi(config);
  await app.listen(config.SEND_API_PORT, config.SEND_API_HOST);
  console.warn(`send API listening on http://${config.SEND_API_HOST}:${config.SEND_API_PORT} (docs at /docs, queues at /admin/queues)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `send API cannot start. ${error.message}` : error);
  process.exit(1);
});
