import type { BenchFixtures } from './bench-fixtures';
import { builtApp, portTaken } from './bench-apps';
import { answersHealth, startService } from './child-service';
import type { NaiveServer } from './naive-server';
import { processEnvironment } from './process-tree';

const PER_REQUEST_SEND_PORT = 3902;

/**
 * The send API before group commit, kept runnable: this build's send API from dist/ with
 * SEND_GROUP_COMMIT_MAX=1, so each request looks its sender up, records its send by a
 * statement of its own and queues it by a Redis call of its own. It gets the measured send
 * API's environment (database, Redis and queue prefix, storage, pool size), so the
 * grouping is all that differs.
 */
export async function startPerRequestSendApi(fixtures: BenchFixtures): Promise<NaiveServer> {
  if (await portTaken(PER_REQUEST_SEND_PORT)) throw new Error(`port ${PER_REQUEST_SEND_PORT} is taken; stop what listens there (a send API left over?)`);
  const base = new URL(`http://127.0.0.1:${PER_REQUEST_SEND_PORT}`);
  const environment = processEnvironment((await fixtures.sendApi.health()).pid);
  const service = await startService({
    name: 'the send API recording each send alone',
    args: ['--enable-source-maps', builtApp('send-api')],
    env: { ...environment, SEND_GROUP_COMMIT_MAX: '1', SEND_API_PORT: String(PER_REQUEST_SEND_PORT), SEND_API_HOST: '127.0.0.1' },
    ready: () => answersHealth(base),
    startTimeoutMs: 60_000,
  });
  return { base, pid: service.pid, unexpectedExit: service.unexpectedExit, stop: service.stop };
}
