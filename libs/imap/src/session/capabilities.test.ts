import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { capabilitiesOf } from './capabilities';

describe('capabilities', () => {
  const extras = (session: { state: string; secure: boolean }, options: { allowPlaintext: boolean; tls: boolean }) =>
    capabilitiesOf(session, options).filter((name) => ['STARTTLS', 'LOGINDISABLED', 'AUTH=PLAIN'].includes(name));

  test('STARTTLS and LOGINDISABLED in the clear, AUTH=PLAIN once signing in is safe or allowed, none after sign-in', () => {
    assert.deepEqual(extras({ state: 'not-authenticated', secure: false }, { allowPlaintext: false, tls: true }), ['STARTTLS', 'LOGINDISABLED']);
    assert.deepEqual(extras({ state: 'not-authenticated', secure: false }, { allowPlaintext: true, tls: true }), ['STARTTLS', 'AUTH=PLAIN']);
    assert.deepEqual(extras({ state: 'not-authenticated', secure: false }, { allowPlaintext: true, tls: false }), ['AUTH=PLAIN']);
    assert.deepEqual(extras({ state: 'not-authenticated', secure: true }, { allowPlaintext: false, tls: true }), ['AUTH=PLAIN']);
    assert.deepEqual(extras({ state: 'authenticated', secure: true }, { allowPlaintext: false, tls: true }), []);
  });
});
