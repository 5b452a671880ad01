import 'reflect-metadata';
import { ConfigError } from '@letterbox/config';
import { runClustered } from '@letterbox/http';
import { createReadApi } from './create-read-api';
import { loadReadApiConfig } from './read-api.config';

function start(): void {
  const config = loadReadApiConfig();
  runClustered(config.READ_API_WORKERS, async () => {
    const app = await createReadApi(config);
    await app.listen(config.READ_API_PORT, config.READ_API_HOST);
    console.warn(`read API listening on http://${config.READ_API_HOST}:${config.READ_API_PORT} (docs at /docs)`);
  });
}

try {
  start();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`read API cannot start. ${error.message}`);
  process.exit(1);
}
