import path from 'node:path';
import { ALICE_EMAIL } from '../data/bench-accounts';
import type { BenchFixtures } from '../harness/bench-fixtures';
import { startNaiveServer } from '../harness/naive-server';
import { AUTOCANNON_SECONDS, type LoadScenario } from './scenario';

const PATH = '/v2/mailboxes';
const FLOOR_PORT = 3938;
/** Issue 31: the counters every screen asks for at no less than half what a bare server answers. */
const MIN_FLOOR_RATIO = 0.5;

/** Alice's mailbox list as the read API answers it now, with its ETag. */
async function currentList(fixtures: BenchFixtures): Promise<{ etag: string; body: string }> {
  const response = await fetch(new URL(PATH, fixtures.api.base), { headers: await fixtures.authorization(ALICE_EMAIL) });
  const body = await response.text();
  const etag = response.headers.get('etag');
  if (!response.ok || !etag) throw new Error(`GET ${PATH} answered ${response.status}${etag ? '' : ' without an ETag'}: ${body.slice(0, 300)}`);
  return { etag, body };
}

/**
 * A bare Fastify answering the JSON the read API answers, started for each run: what a server
 * that does nothing else costs on this machine, next to the API in the same run.
 */
const floorOf = (scenario: Pick<LoadScenario, 'name'>): Pick<LoadScenario, 'naiveTarget' | 'startNaive' | 'comparedWith' | 'minRatioToCompared'> => ({
  comparedWith: 'bare Fastify',
  minRatioToCompared: MIN_FLOOR_RATIO,
  naiveTarget: async () => ({ paths: [PATH], headers: {} }),
  startNaive: async (fixtures) => {
    const { body } = await currentList(fixtures);
    const floor = await startNaiveServer({
      file: path.join(__dirname, '../naive/mailboxes-floor-server.ts'),
      port: FLOOR_PORT,
      portVariable: 'MAILBOXES_FLOOR_PORT',
      env: { MAILBOXES_FLOOR_BODY: body },
    });
    return {
      ...floor,
      notes: async () => [`${scenario.name}: the floor is bench/naive/mailboxes-floor-server.ts on :${FLOOR_PORT}, answering the same ${body.length} bytes`],
    };
  },
});

/** What the webmail sends after every event: If-None-Match with the list it holds, answered 304 while nothing changed. */
export const mailboxesScenario: LoadScenario = {
  kind: 'load',
  name: 'mailboxes',
  title: 'GET /v2/mailboxes as alice revalidated with If-None-Match (304): the counters every screen shows, against a bare Fastify',
  tool: 'autocannon',
  connections: 550,
  defaultDurationSeconds: AUTOCANNON_SECONDS,
  target: async (fixtures) => ({
    paths: [PATH],
    headers: { ...(await fixtures.authorization(ALICE_EMAIL)), 'if-none-match': (await currentList(fixtures)).etag },
  }),
  check: async (fixtures) => {
    const { etag } = await currentList(fixtures);
    const response = await fetch(new URL(PATH, fixtures.api.base), { headers: { ...(await fixtures.authorization(ALICE_EMAIL)), 'if-none-match': etag } });
    await response.arrayBuffer();
    if (response.status !== 304) throw new Error(`If-None-Match: ${etag} answered ${response.status}, not 304`);
    return `If-None-Match: ${etag} answered 304`;
  },
  ...floorOf({ name: 'mailboxes' }),
};

/** The same list fetched whole (200), as on the first load of the webmail. */
export const mailboxesFullScenario: LoadScenario = {
  kind: 'load',
  name: 'mailboxes-200',
  title: 'GET /v2/mailboxes as alice without If-None-Match (200, the whole list), against a bare Fastify',
  tool: 'autocannon',
  connections: 550,
  defaultDurationSeconds: AUTOCANNON_SECONDS,
  target: async (fixtures) => ({ paths: [PATH], headers: await fixtures.authorization(ALICE_EMAIL) }),
  ...floorOf({ name: 'mailboxes-200' }),
};
