import { ALICE_EMAIL } from '../data/bench-accounts';
import { AUTOCANNON_SECONDS, type LoadScenario } from './scenario';

export const mailboxesScenario: LoadScenario = {
  kind: 'load',
  name: 'mailboxes',
  title: 'GET /v2/mailboxes as alice: the counters every screen shows',
  tool: 'autocannon',
  connections: 550,
  defaultDurationSeconds: AUTOCANNON_SECONDS,
  target: async (fixtures) => ({ paths: ['/v2/mailboxes'], headers: await fixtures.authorization(ALICE_EMAIL) }),
};
