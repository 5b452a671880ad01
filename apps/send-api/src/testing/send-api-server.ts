import 'reflect-metadata';
import { createSendApi } from '../create-send-api';
import { loadSendApiConfig, type SendApiConfig } from '../send-api.config';

export interface RunningSendApi {
  url: string;
  config: SendApiConfig;
  close(): Promise<void>;
}

/** The send API in this process, on a free port, against the test database; `env` overrides process.env. */
export async function startSendApiServer(env: Record<string, string>): Promise<RunningSendApi> {
  const config = loadSendApiConfig({ ...process.env, SEND_API_PORT: '1', SEND_API_HOST: '127.0.0.1', ...env });
  const app = await createSendApi(config, false);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, config, close: () => app.close() };
}
