import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { login } from '@letterbox/testing';
import { createReadApi } from '../create-read-api';
import { loadReadApiConfig } from '../read-api.config';

export interface RunningApi {
  url: string;
  /** An access token for the user, from the real login route. */
  login(email: string, password: string): Promise<string>;
  close(): Promise<void>;
}

/** The read API in this process, on a free port, against the test database unless `env` says otherwise. */
export async function startReadApiServer(env: NodeJS.ProcessEnv = {}): Promise<RunningApi> {
  // Live events of test users stay out of the namespace a locally running platform uses.
  const config = loadReadApiConfig({
    QUEUE_PREFIX: `test-${randomUUID().slice(0, 8)}`,
    ...process.env,
    ...env,
    READ_API_PORT: '1',
    READ_API_HOST: '127.0.0.1',
  });
  const app = await createReadApi(config, false);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    login: (email, password) => login(url, email, password),
    close: () => app.close(),
  };
}
