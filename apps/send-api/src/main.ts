import 'reflect-metadata';
import { listenForOperators } from '@letterbox/nest-infrastructure';
import { exitOnStartupFailure, loggerFor, nameProcess, startProcessMetrics } from '@letterbox/observability';
import { createSendApi } from './create-send-api';
import { loadSendApiConfig } from './send-api.config';

nameProcess('send-api');
startProcessMetrics('send-api');

async function main(): Promise<void> {
  const config = loadSendApiConfig();
  const app = await createSendApi(config);
  await app.listen(config.SEND_API_PORT, config.SEND_API_HOST);
  const ops = await listenForOperators(app, config);
  loggerFor('process').info(
    `send API listening on http://${config.SEND_API_HOST}:${config.SEND_API_PORT} (docs at /docs, queues at /admin/queues; /metrics on ${config.OPS_HOST}:${ops.port})`,
  );
}

main().catch((error: unknown) => exitOnStartupFailure('send API', error));
