import 'reflect-metadata';
import { listenForOperators } from '@letterbox/nest-infrastructure';
import { createSendApi } from '../create-send-api';
import { loadSendApiConfig, type SendApiConfig } from '../send-api.config';

export interface RunningSendApi {
  url: string;
  /** Its ops listener, as main.ts starts it: /metrics and /health/*. */
  opsUrl: string;
  config: SendApiConfig;
  close(): Promise<void>;
}

/** The send API in this process, on free ports (its ops listener's too), against the test database; `env` overrides process.env. */
export async function startSendApiServer(env: Record<string, string>): Promise<RunningSendApi> {
  const config = loadSendApiConfig({ ...process.env, SEND_API_PORT: '1', SEND_API_HOST: '127.0.0.1', OPS_PORT: '0', OPS_HOST: '127.0.0.1', ...env });
  const app = await createSendApi(config, false);
  await app.listen(0, '127.0.0.1');
  const ops = await listenForOperators(app, config);
  const address = app.getHttpServer().address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    opsUrl: `http://127.0.0.1:${ops.port}`,
    config,
    close: async () => {
      await ops.close();
      await app.close();
    },
  };
}
