import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CachingDnsResolver } from './caching-dns-resolver';
import { UNANSWERED, type DnsRecord } from './dns-record-source';
import { serveDns, type DnsServer } from './dns-server';

const BIG_TEXT = `v=spf1 ${'x'.repeat(9_993)}`;

/** The zone the tests ask, and how often the server was asked for each name and type. */
const ZONE: Record<string, DnsRecord[] | typeof UNANSWERED> = {
  'shapes.test': [
    { type: 'A', address: '192.0.2.1' },
    { type: 'AAAA', address: '2001:db8::1' },
    { type: 'MX', exchange: 'mx.shapes.test', priority: 10 },
    { type: 'TXT', text: 'v=spf1 -all' },
    { type: 'TXT', text: 'y'.repeat(300) },
    { type: 'NS', target: 'ns.shapes.test' },
  ],
  'alias.shapes.test': [{ type: 'CNAME', target: 'shapes.test' }],
  '1.2.0.192.in-addr.arpa': [{ type: 'PTR', target: 'shapes.test' }],
  'cached.test': [
    { type: 'TXT', text: 'kept', ttl: 300 },
    { type: 'A', address: '192.0.2.2' },
  ],
  'short.test': [{ type: 'TXT', text: 'brief', ttl: 1 }],
  'uncached.test': [{ type: 'TXT', text: 'zero', ttl: 0 }],
  'big.test': [{ type: 'TXT', text: BIG_TEXT }],
  'slow.test': UNANSWERED,
};

describe('CachingDnsResolver, against a DNS server on this machine', () => {
  let server: DnsServer;
  let silent: DnsServer;
  const asked = new Map<string, number>();
  let failing = false;
  const timesAsked = (name: string, type: string) => asked.get(`${type} ${name}`) ?? 0;
  const resolver = (options: { timeoutMs?: number; servers?: string[] } = {}) =>
    new CachingDnsResolver({ servers: options.servers ?? [`127.0.0.1:${server.port}`], timeoutMs: options.timeoutMs ?? 2000 });

  before(async () => {
    server = await serveDns({
      port: 0,
      sources: [
        (name, type) => {
          asked.set(`${type} ${name}`, timesAsked(name, type) + 1);
          if (failing) throw new Error('the zone is broken');
          return ZONE[name];
        },
      ],
    });
    silent = await serveDns({ port: 0, sources: [() => UNANSWERED] });
  });

  after(async () => {
    await Promise.all([server.close(), silent.close()]);
  });

  test('answers every record type the way dns.promises.resolve does', async () => {
    const ours = resolver();
    const node = new Resolver();
    node.setServers([`127.0.0.1:${server.port}`]);
    const questions: Array<[string, 'A' | 'AAAA' | 'MX' | 'TXT' | 'NS' | 'CNAME' | 'PTR']> = [
      ['shapes.test', 'A'],
      ['shapes.test', 'AAAA'],
      ['shapes.test', 'MX'],
      ['shapes.test', 'TXT'],
      ['shapes.test', 'NS'],
      ['alias.shapes.test', 'CNAME'],
      ['1.2.0.192.in-addr.arpa', 'PTR'],
    ];
    for (const [name, type] of questions) {
      assert.deepEqual(await ours.resolve(name, type), await node.resolve(name, type), `${type} ${name}`);
    }
    assert.deepEqual(await ours.resolve('shapes.test', 'TXT'), [['v=spf1 -all'], ['y'.repeat(255), 'y'.repeat(45)]]);
  });

  test('keeps an answer within its TTL: the server is asked once, and each caller gets its own copy', async () => {
    const ours = resolver();
    const first = await ours.resolve('cached.test', 'TXT');
    first[0][0] = 'changed by a caller';
    assert.deepEqual(await ours.resolve('cached.test', 'TXT'), [['kept']]);
    assert.deepEqual(await ours.resolve('CACHED.test.', 'TXT'), [['kept']]);
    assert.equal(timesAsked('cached.test', 'TXT'), 1);
  });

  test('asks again once the TTL has passed, and never keeps a TTL of 0', async () => {
    const ours = resolver();
    await ours.resolve('short.test', 'TXT');
    await ours.resolve('short.test', 'TXT');
    assert.equal(timesAsked('short.test', 'TXT'), 1);
    await sleep(1100);
    assert.deepEqual(await ours.resolve('short.test', 'TXT'), [['brief']]);
    assert.equal(timesAsked('short.test', 'TXT'), 2);
    await ours.resolve('uncached.test', 'TXT');
    await ours.resolve('uncached.test', 'TXT');
    assert.equal(timesAsked('uncached.test', 'TXT'), 2);
  });

  test('lookups of one record under way at once share one query', async () => {
    const ours = resolver();
    const answers = await Promise.all(Array.from({ length: 20 }, () => ours.resolve('cached.test', 'A')));
    assert.deepEqual(
      answers,
      Array.from({ length: 20 }, () => ['192.0.2.2']),
    );
    assert.equal(timesAsked('cached.test', 'A'), 1);
  });

  test('a name that does not exist fails with ENOTFOUND, a name without the type with ENODATA, both kept briefly', async () => {
    const ours = resolver();
    await assert.rejects(ours.resolve('missing.test', 'TXT'), { code: 'ENOTFOUND', syscall: 'queryTxt', hostname: 'missing.test' });
    await assert.rejects(ours.resolve('missing.test', 'TXT'), { code: 'ENOTFOUND' });
    assert.equal(timesAsked('missing.test', 'TXT'), 1);
    await assert.rejects(ours.resolve('cached.test', 'MX'), { code: 'ENODATA', message: 'queryMx ENODATA cached.test' });
    await assert.rejects(ours.resolve('cached.test', 'MX'), { code: 'ENODATA' });
    assert.equal(timesAsked('cached.test', 'MX'), 1);
  });

  test('callers sharing a failed lookup each get their own error, as mailauth writes on them', async () => {
    const ours = resolver();
    const [first, second] = await Promise.allSettled([ours.resolve('missing2.test', 'A'), ours.resolve('missing2.test', 'A')]);
    assert.ok(first.status === 'rejected' && second.status === 'rejected');
    assert.notEqual(first.reason, second.reason);
    assert.equal(first.reason.code, 'ENOTFOUND');
  });

  test('a server that never answers fails the lookup with ETIMEOUT at its timeout, and it is not kept', async () => {
    const ours = resolver({ timeoutMs: 300 });
    const started = performance.now();
    await assert.rejects(ours.resolve('slow.test', 'TXT'), { code: 'ETIMEOUT', hostname: 'slow.test' });
    const waited = performance.now() - started;
    assert.ok(waited >= 290 && waited < 5000, `settled after ${waited} ms`);
    await assert.rejects(ours.resolve('slow.test', 'TXT'), { code: 'ETIMEOUT' });
    assert.equal(timesAsked('slow.test', 'TXT'), 2);
  });

  test('of several servers, the one that answers is believed', async () => {
    const ours = resolver({ servers: [`127.0.0.1:${silent.port}`, `127.0.0.1:${server.port}`], timeoutMs: 5000 });
    assert.deepEqual(await ours.resolve('shapes.test', 'A'), ['192.0.2.1']);
  });

  test('a server failure is ESERVFAIL and is not kept; a server not listening is ECONNREFUSED', async () => {
    const ours = resolver();
    failing = true;
    try {
      await assert.rejects(ours.resolve('shapes.test', 'PTR'), { code: 'ESERVFAIL' });
    } finally {
      failing = false;
    }
    await assert.rejects(ours.resolve('shapes.test', 'PTR'), { code: 'ENODATA' });
    const gone = await serveDns({ port: 0, sources: [] });
    await gone.close();
    await assert.rejects(resolver({ servers: [`127.0.0.1:${gone.port}`] }).resolve('shapes.test', 'A'), { code: 'ECONNREFUSED' });
  });

  test('a 10,000-character TXT record, too big for UDP, comes whole over TCP', async () => {
    const answer = await resolver().resolve('big.test', 'TXT');
    assert.equal(answer.length, 1);
    assert.equal(answer[0].join(''), BIG_TEXT);
    assert.ok(answer[0].every((part: string) => part.length <= 255));
  });

  test('a malformed name or record type is refused without asking, as node refuses them', async () => {
    const ours = resolver();
    await assert.rejects(ours.resolve(`${'a'.repeat(64)}.test`, 'TXT'), { code: 'EBADNAME' });
    await assert.rejects(ours.resolve('a..test', 'TXT'), { code: 'EBADNAME' });
    await assert.rejects(ours.resolve('shapes.test', 'ANY'), { code: 'ERR_INVALID_ARG_VALUE' });
  });
});
