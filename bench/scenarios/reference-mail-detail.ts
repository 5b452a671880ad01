import { ALICE_EMAIL } from '../data/bench-accounts';
import type { ReferenceSize } from '../harness/bench-fixtures';
import { AUTOCANNON_SECONDS, type LoadScenario } from './scenario';

/** GET /v2/mails/:id of one of alice's reference mails; the detail scenarios differ only in size and load. */
export function referenceMailDetail(
  name: string,
  size: ReferenceSize,
  connections: number,
  options: Pick<LoadScenario, 'naiveTarget' | 'expectedHeapLimitMb'> = {},
): LoadScenario {
  return {
    kind: 'load',
    name,
    title: `GET /v2/mails/:id of alice's ${size} reference mail`,
    tool: 'autocannon',
    connections,
    defaultDurationSeconds: AUTOCANNON_SECONDS,
    target: async (fixtures) => ({
      paths: [`/v2/mails/${await fixtures.referenceMailId(ALICE_EMAIL, size)}`],
      headers: await fixtures.authorization(ALICE_EMAIL),
    }),
    ...options,
  };
}
