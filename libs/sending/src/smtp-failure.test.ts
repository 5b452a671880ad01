import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRateLimitReply } from './smtp-failure';

const reply = (responseCode: number, response: string) => Object.assign(new Error(response), { responseCode, response });

test('a transient policy reply (4.7.x) is a rate limit; other replies and connection failures are not', () => {
  assert.equal(isRateLimitReply(reply(451, '451 4.7.1 Rate limit exceeded for a@example.test, try again later')), true);
  assert.equal(isRateLimitReply(reply(421, '421-4.7.28 Our system has detected an unusual rate')), true);
  assert.equal(isRateLimitReply(reply(451, '451 4.3.0 Temporary failure')), false);
  assert.equal(isRateLimitReply(reply(550, '550 5.7.1 Message rejected permanently')), false);
  assert.equal(isRateLimitReply(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' })), false);
});
