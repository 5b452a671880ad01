import type { ThreadListPage } from '@letterbox/mail';
import { BULK_USER_EMAIL } from '../data/bench-accounts';
import { serverRootPid } from '../harness/process-tree';
import { AUTOCANNON_SECONDS, type LoadScenario } from './scenario';

const CONVERSATIONS = '/v2/threads?limit=20';
const FLAT = '/v2/mails?limit=20';

/** The conversation list beside the flat list of the same user, on the same read API, one after the other. */
export const threadsScenario: LoadScenario = {
  kind: 'load',
  name: 'threads',
  title: 'GET /v2/threads?limit=20 as the bulk user (1,000,000 mails in conversations of three), beside GET /v2/mails?limit=20; target ≥ 0.7x its rate',
  tool: 'autocannon',
  connections: 200,
  defaultDurationSeconds: AUTOCANNON_SECONDS,
  comparedWith: 'flat list',
  target: async (fixtures) => ({ paths: [CONVERSATIONS], headers: await fixtures.authorization(BULK_USER_EMAIL) }),
  naiveTarget: async (fixtures) => ({ paths: [FLAT], headers: await fixtures.authorization(BULK_USER_EMAIL) }),
  startNaive: async (fixtures) => {
    const health = await fixtures.api.health();
    return { base: fixtures.api.base, pid: serverRootPid(health.pid), unexpectedExit: () => undefined, stop: async () => undefined };
  },
  check: async (fixtures) => {
    const page = await fixtures.api.getJson<ThreadListPage>(CONVERSATIONS, await fixtures.token(BULK_USER_EMAIL));
    const messages = page.items.reduce((sum, thread) => sum + thread.messageCount, 0);
    return `first page: ${page.items.length} conversations holding ${messages} mails`;
  },
};
