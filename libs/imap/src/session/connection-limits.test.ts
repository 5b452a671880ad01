import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConnectionLimits } from './connection-limits';

describe('ConnectionLimits', () => {
  test('refuses past the limit per address and per user, and gives a place back once, however often released', () => {
    const limits = new ConnectionLimits({ perAddress: 2, perUser: 1 });
    const first = limits.connect('192.0.2.1');
    assert.ok(first && limits.connect('192.0.2.1'));
    assert.equal(limits.connect('192.0.2.1'), undefined);
    assert.ok(limits.connect('192.0.2.2'), 'another address has places of its own');
    first();
    first();
    assert.ok(limits.connect('192.0.2.1'));
    assert.equal(limits.connect('192.0.2.1'), undefined);
    const session = limits.signIn(7);
    assert.ok(session);
    assert.equal(limits.signIn(7), undefined);
    session();
    assert.ok(limits.signIn(7));
  });
});
