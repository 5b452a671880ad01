import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { authenticate, dkimSign } from 'mailauth';
import { CachingDnsResolver } from '@letterbox/dns';
import { BIG_DKIM_RECORD, BIG_SPF_RECORD, TEST_DKIM_PUBLIC_KEYS } from './mock-dns-zones';
import { startMockDns, type MockDns } from './mock-dns';
import { TEST_DKIM_KEYS, type TestDkimKey } from './testing/dns-test-keys';

const txt = (answer: string[][]) => answer.map((strings) => strings.join(''));

describe('the mock DNS, asked through CachingDnsResolver', () => {
  let dns: MockDns;
  let resolve: CachingDnsResolver['resolve'];

  before(async () => {
    dns = await startMockDns({ port: 0 });
    resolve = new CachingDnsResolver({ servers: [`127.0.0.1:${dns.port}`], timeoutMs: 1000 }).resolve;
  });

  after(() => dns.close());

  test('the demo domain allows this machine alone, quarantines forgeries, and has a mail host that maps back to it', async () => {
    assert.deepEqual(txt(await resolve('letterbox.test', 'TXT')), ['v=spf1 ip4:127.0.0.1 -all']);
    assert.deepEqual(txt(await resolve('_dmarc.letterbox.test', 'TXT')), ['v=DMARC1; p=quarantine; rua=mailto:dmarc-reports@letterbox.test']);
    assert.deepEqual(await resolve('letterbox.test', 'MX'), [{ exchange: 'mail.letterbox.test', priority: 10 }]);
    assert.deepEqual(await resolve('mail.letterbox.test', 'A'), ['127.0.0.1']);
    assert.deepEqual(await resolve('1.0.0.127.in-addr.arpa', 'PTR'), ['mail.letterbox.test']);
    await assert.rejects(resolve('letterbox.test', 'AAAA'), { code: 'ENODATA' });
  });

  test('each outside test domain publishes what its name says', async () => {
    const expected: Record<string, string[]> = {
      'pass.example': ['v=spf1 ip4:127.0.0.1 -all'],
      '_dmarc.pass.example': ['v=DMARC1; p=reject'],
      'rsa2048._domainkey.pass.example': [`v=DKIM1; k=rsa; p=${TEST_DKIM_PUBLIC_KEYS['rsa2048._domainkey.pass.example']}`],
      'ed25519._domainkey.pass.example': [`v=DKIM1; k=ed25519; p=${TEST_DKIM_PUBLIC_KEYS['ed25519._domainkey.pass.example']}`],
      'fail.example': ['v=spf1 ip4:192.0.2.1 -all'],
      '_dmarc.fail.example': ['v=DMARC1; p=reject'],
      'quarantine.example': ['v=spf1 ip4:192.0.2.1 -all'],
      '_dmarc.quarantine.example': ['v=DMARC1; p=quarantine'],
      'softfail.example': ['v=spf1 ip4:192.0.2.1 ~all'],
      'loop.example': ['v=spf1 include:b.loop.example -all'],
      'b.loop.example': ['v=spf1 include:loop.example -all'],
      'weak.example': ['v=spf1 ip4:127.0.0.1 -all'],
      'weak._domainkey.weak.example': [`v=DKIM1; k=rsa; p=${TEST_DKIM_PUBLIC_KEYS['weak._domainkey.weak.example']}`],
      '_dmarc.weak.example': ['v=DMARC1; p=none'],
      'nopolicy.example': ['v=spf1 ip4:127.0.0.1 -all'],
      'big.example': [BIG_SPF_RECORD],
      'big._domainkey.big.example': [BIG_DKIM_RECORD],
    };
    for (const [name, records] of Object.entries(expected)) assert.deepEqual(txt(await resolve(name, 'TXT')), records, name);
    assert.equal(BIG_SPF_RECORD.length, 10_000);
    assert.equal(BIG_DKIM_RECORD.length, 10_000);
    for (const name of ['_dmarc.softfail.example', '_dmarc.nopolicy.example', 'other._domainkey.pass.example', 'unknown.example']) {
      await assert.rejects(resolve(name, 'TXT'), { code: 'ENOTFOUND' }, name);
    }
  });

  test('slow.example never answers, for any of its names', async () => {
    const quick = new CachingDnsResolver({ servers: [`127.0.0.1:${dns.port}`], timeoutMs: 200 }).resolve;
    for (const name of ['slow.example', '_dmarc.slow.example', 'any._domainkey.slow.example']) {
      await assert.rejects(quick(name, 'TXT'), { code: 'ETIMEOUT' }, name);
    }
  });

  test('the published DKIM keys are the public halves of the test keys', () => {
    for (const key of Object.values(TEST_DKIM_KEYS)) {
      const spki = createPublicKey(key.privateKey).export({ type: 'spki', format: 'der' });
      const published = key.algorithm === 'ed25519-sha256' ? spki.subarray(-32) : spki;
      const name = `${key.selector}._domainkey.${key.signingDomain}` as keyof typeof TEST_DKIM_PUBLIC_KEYS;
      assert.equal(published.toString('base64'), TEST_DKIM_PUBLIC_KEYS[name], name);
    }
  });

  describe('mailauth, verifying mail from this machine against it', () => {
    const message = (from: string) =>
      [
        `From: Someone <someone@${from}>`,
        'To: bob@letterbox.test',
        'Subject: Hello',
        'Date: Fri, 27 Nov 2026 07:00:00 +0000',
        'Message-ID: <1@test>',
        '',
        'Hello.',
        '',
      ].join('\r\n');

    async function verify(from: string, keys: TestDkimKey[] = []) {
      const raw = message(from);
      // mailauth's types want one key at the top level too; it signs with signatureData's, and writes on them, hence the copies.
      const signatureData = keys.map((key) => ({ ...key }));
      const signed =
        keys.length > 0
          ? (await dkimSign(raw, { ...keys[0], canonicalization: 'relaxed/relaxed', signTime: new Date(), signatureData })).signatures + raw
          : raw;
      return authenticate(signed, {
        ip: '127.0.0.1',
        helo: 'mail.test',
        sender: `someone@${from}`,
        mta: 'mx.letterbox.test',
        resolver: resolve,
        disableBimi: true,
      });
    }

    test('pass.example, signed with both of its keys, passes SPF, both DKIM signatures and DMARC', async () => {
      const result = await verify('pass.example', [TEST_DKIM_KEYS.passRsa, TEST_DKIM_KEYS.passEd25519]);
      assert.equal(result.spf && result.spf.status.result, 'pass');
      assert.deepEqual(
        result.dkim.results.map((signature) => signature.status.result),
        ['pass', 'pass'],
      );
      assert.equal(result.dmarc && result.dmarc.status.result, 'pass');
    });

    test('the other domains give the verdicts their names promise', async () => {
      const verdicts: Record<string, [spf: string, dmarc: string]> = {
        'fail.example': ['fail', 'fail'],
        'quarantine.example': ['fail', 'fail'],
        'softfail.example': ['softfail', 'none'],
        'nopolicy.example': ['pass', 'none'],
        'loop.example': ['permerror', 'none'],
        'big.example': ['pass', 'none'],
        'slow.example': ['temperror', 'temperror'],
      };
      for (const [domain, [spf, dmarc]] of Object.entries(verdicts)) {
        const result = await verify(domain);
        assert.deepEqual([result.spf && result.spf.status.result, result.dmarc && result.dmarc.status.result], [spf, dmarc], domain);
      }
      const quarantine = await verify('quarantine.example');
      assert.equal(quarantine.dmarc && quarantine.dmarc.policy, 'quarantine');
    });

    test("weak.example's 512-bit key is refused by policy (RFC 8301), its SPF still passing DMARC", async () => {
      const result = await verify('weak.example', [TEST_DKIM_KEYS.weak]);
      assert.equal(result.dkim.results[0].status.result, 'policy');
      assert.equal(result.dmarc && result.dmarc.status.result, 'pass');
    });
  });
});
