import { ALICE_EMAIL } from '../data/bench-accounts';
import type { LoadScenario } from './scenario';

export const raw22mScenario: LoadScenario = {
  kind: 'load',
  name: 'raw-22m',
  title: "GET /v2/mails/:id/raw of alice's 22 MB reference mail (wrk)",
  tool: 'wrk',
  connections: 8,
  defaultDurationSeconds: 10,
  target: async (fixtures) => ({
    paths: [`/v2/mails/${await fixtures.referenceMailId(ALICE_EMAIL, 'large')}/raw`],
    headers: await fixtures.authorization(ALICE_EMAIL),
  }),
};
