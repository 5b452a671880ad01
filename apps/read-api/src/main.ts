import 'reflect-metadata';
import { runClustered } from '@letterbox/http';
import { listenForOperators } from '@letterbox/nest-infrastructure';
import { exitOnStartupFailure, loggerFor, nameProcess, startProcessMetrics } from '@letterbox/observability';
import { createReadApi } from './create-read-api';
import { loadReadApiConfig } from './read-api.config';

nameProcess('read-api');
startProcessMetrics('read-api');

function start(): void {
  const config = loadReadApiConfig();
  runClustered(config.READ_API_WORKERS, async () => {
    const app = await createReadApi(config);
    await app.listen(config.READ_API_PORT, config.READ_API_HOST);
    // With several processes, the cluster shares this port as it shares the public one.
    const ops = await listenForOperators(app, config);
    loggerFor('process').info(
      `read API listening on http://${config.READ_API_HOST}:${config.READ_API_PORT} (docs at /docs; /metrics on ${config.OPS_HOST}:${ops.port})`,
    );
  });
}

try {
  start();
} catch (error) {
  exitOnStartupFailure('read API', error);
}
