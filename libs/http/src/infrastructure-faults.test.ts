import assert from 'node:assert/strict';
import { test } from 'node:test';
import { infrastructureFaultOf } from './infrastructure-faults';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** How Prisma 7 answers a PostgreSQL error it has no code of its own for: P2039, pg's error in `meta`. */
const prismaDriverAdapterError = (code: string, message: string) =>
  Object.assign(new Error(`Invalid \`db.prisma.mail.update()\` invocation: Database error. Code: \`${code}\``), {
    code: 'P2039',
    meta: {
      driverAdapterError: Object.assign(new Error(message), { name: 'DriverAdapterError', cause: { kind: 'postgres', code, originalCode: code, message } }),
    },
  });
const named = (message: string, name: string) => Object.assign(new Error(message), { name });

test('PostgreSQL and Redis going away, found through wrapping causes, are 503s with Retry-After; a full disk is 507', () => {
  const cases: Array<[unknown, number, string]> = [
    [withCode('terminating connection due to administrator command', '57P01'), 503, 'database'],
    [withCode('the database system is starting up', '57P03'), 503, 'database'],
    [withCode('sorry, too many clients already', '53300'), 503, 'database'],
    [new Error('Connection terminated unexpectedly'), 503, 'database'],
    [new Error('wrapped by the driver adapter', { cause: withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED') }), 503, 'network'],
    [withCode('canceling statement due to statement timeout', '57014'), 503, 'database'],
    [prismaDriverAdapterError('57014', 'canceling statement due to statement timeout'), 503, 'database'],
    [withCode('Invalid `db.prisma.user.findUnique()` invocation: DatabaseNotReachable', 'P1001'), 503, 'database'],
    [named('Reached the max retries per request limit (which is 1).', 'MaxRetriesPerRequestError'), 503, 'redis'],
    [new Error('Connection is closed.'), 503, 'redis'],
    [new Error("Stream isn't writeable and enableOfflineQueue options is false"), 503, 'redis'],
    [withCode('ENOSPC: no space left on device, write', 'ENOSPC'), 507, 'storage-full'],
  ];
  for (const [error, status, kind] of cases) {
    const fault = infrastructureFaultOf(error);
    assert.equal(fault?.status, status, String(error));
    assert.equal(fault?.kind, kind, String(error));
    assert.ok((fault?.retryAfterSeconds ?? 0) > 0);
    assert.doesNotMatch(fault?.detail ?? '', /127\.0\.0\.1|5432|ECONNREFUSED/);
  }
  for (const ordinary of [
    new Error('x is not a function'),
    withCode('duplicate key value', '23505'),
    prismaDriverAdapterError('23514', 'violates check constraint'),
    'a string',
    null,
  ]) {
    assert.equal(infrastructureFaultOf(ordinary), undefined, String(ordinary));
  }
});
