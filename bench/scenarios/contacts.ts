import { BULK_USER_EMAIL } from '../data/bench-accounts';
import { AUTOCANNON_SECONDS, type LoadScenario } from './scenario';

/**
 * Recipient autocomplete as the compose box asks it, one letter typed, by ten people
 * typing at once: a figure of the lookup, not of a saturated server.
 */
export const contactsScenario: LoadScenario = {
  kind: 'load',
  name: 'contacts',
  title: 'GET /v2/contacts?q=a as the bulk user (1,000,000 mails): recipient autocomplete',
  tool: 'autocannon',
  connections: 10,
  defaultDurationSeconds: AUTOCANNON_SECONDS,
  target: async (fixtures) => ({ paths: ['/v2/contacts?q=a'], headers: await fixtures.authorization(BULK_USER_EMAIL) }),
  goal: { minRequestsPerSecond: 1, maxP99Ms: 20, original: 'issue 10: under 20 ms p99 for a user with 1,000,000 mails' },
};
