import { ALICE_EMAIL } from '../data/bench-accounts';
import { referenceMailDetail } from './reference-mail-detail';

/**
 * The 22 MB mail's view under a 512 MB heap: the view must not read the 16 MB
 * attachment, which the naive server's simpleParser buffers on every request.
 */
export const detail22mScenario = referenceMailDetail('detail-22m', 'large', 70, {
  expectedHeapLimitMb: 512,
  naiveTarget: async (fixtures) => ({
    paths: [`/naive/mails/${await fixtures.referenceMailId(ALICE_EMAIL, 'large')}`],
    headers: await fixtures.authorization(ALICE_EMAIL),
  }),
});
