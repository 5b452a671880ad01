import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { dkimSign } from 'mailauth';
import type { DnsResolve } from '@letterbox/dns';
import type { InboundOrigin } from './mail-authentication';
import { MailVerifier, type MailVerifierOptions } from './mail-verifier';

// Outside DNS is faked: a map of records, as node's resolver answers them.
const strong = keyPair(2048);
const weak = keyPair(512);
const OUTSIDE = '192.0.2.10';

const records: Record<string, string[][]> = {
  'TXT example.test': [['v=spf1 ip4:192.0.2.10 -all']],
  'TXT sel._domainkey.example.test': [[`v=DKIM1; k=rsa; p=${strong.publicKey}`]],
  'TXT _dmarc.example.test': [['v=DMARC1; p=none']],
  'TXT strict.test': [['v=spf1 -all']],
  'TXT sel._domainkey.strict.test': [[`v=DKIM1; k=rsa; p=${strong.publicKey}`]],
  'TXT _dmarc.strict.test': [['v=DMARC1; p=reject']],
  'TXT quarantine.test': [['v=spf1 -all']],
  'TXT _dmarc.quarantine.test': [['v=DMARC1; p=quarantine']],
  'TXT weak.test': [['v=spf1 -all']],
  'TXT sel._domainkey.weak.test': [[`v=DKIM1; k=rsa; p=${weak.publicKey}`]],
  'TXT _dmarc.weak.test': [['v=DMARC1; p=none']],
  'TXT loop.test': [['v=spf1 include:loop2.test -all']],
  'TXT loop2.test': [['v=spf1 include:loop.test -all']],
  // 10,000 characters in 40 strings of 250, as a TXT record splits them.
  'TXT long.test': [`v=spf1 ${'ip4:198.51.100.1 '.repeat(600)}-all`.slice(0, 10_000).match(/.{1,250}/gs) ?? []],
  'TXT letterbox.test': [['v=spf1 -all']],
};

const fakeDns: DnsResolve = async (name, rrtype) => {
  const answer = records[`${rrtype} ${name.toLowerCase()}`];
  if (answer) return answer;
  throw Object.assign(new Error(`${name} not found`), { code: 'ENOTFOUND' });
};
const silentDns: DnsResolve = () => new Promise(() => undefined);

function verifier(options: Partial<MailVerifierOptions> = {}): MailVerifier {
  return new MailVerifier({
    authservId: 'mx.letterbox.test',
    hostname: 'mx.letterbox.test',
    resolve: fakeDns,
    dnsBudgetMs: 5000,
    isOwnAddress: async (address) => address.endsWith('@letterbox.test'),
    dmarcRejectAs: 'refuse',
    ...options,
  });
}

const smtp = (sender: string, ip = OUTSIDE): InboundOrigin => ({
  channel: 'smtp',
  ip,
  helo: 'mail.outside.test',
  sender,
  tls: { protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' },
});

function message(from: string, extraHeaders = ''): Buffer {
  return Buffer.from(
    `${extraHeaders}From: Sender <${from}>\r\nTo: bob@letterbox.test\r\nSubject: Quarterly numbers\r\nDate: Fri, 27 Nov 2026 07:00:00 +0000\r\n` +
      `Message-ID: <${Math.random()}@outside.test>\r\n\r\nThe numbers are in.\r\n`,
  );
}

async function signed(content: Buffer, domain: string, privateKey: string, times = 1): Promise<Buffer> {
  const { signatures } = await dkimSign(content, {
    canonicalization: 'relaxed/relaxed',
    signTime: new Date(),
    signingDomain: domain,
    selector: 'sel',
    privateKey,
    signatureData: Array.from({ length: times }, () => ({ signingDomain: domain, selector: 'sel', privateKey })),
  });
  return Buffer.concat([Buffer.from(signatures), content]);
}

async function check(content: Buffer | (() => Readable), origin: InboundOrigin, from: string, options?: Partial<MailVerifierOptions>) {
  return verifier(options).verify({ content, origin, from, inboundId: '7d3c1e4a-0000-4000-8000-000000000001', receivedAt: new Date() });
}

describe('MailVerifier', () => {
  it('passes a message signed by its domain and sent from its SPF address', async () => {
    const verification = await check(
      await signed(message('ann@example.test'), 'example.test', strong.privateKey),
      smtp('ann@example.test'),
      'ann@example.test',
    );
    assert.deepEqual(verification.authentication, { spf: 'pass', dkim: 'pass', dmarc: 'pass', arc: 'none', fromDomain: 'example.test', sender: 'verified' });
    assert.deepEqual(verification.action, { action: 'accept' });
    const trace = verification.trace.toString();
    assert.match(
      trace,
      /^Received: from mail\.outside\.test \(\[192\.0\.2\.10\]\) by mx\.letterbox\.test with ESMTPS \(TLSv1\.3, TLS_AES_256_GCM_SHA384\)\r\n id 7d3c1e4a-/,
    );
    assert.match(trace, /\r\nAuthentication-Results: mx\.letterbox\.test;\r\n dkim=pass/);
    assert.match(trace, /dmarc=pass/);
  });

  it('checks a large message read as a stream as it checks one in memory', async () => {
    const content = await signed(message('ann@example.test'), 'example.test', strong.privateKey);
    const verification = await check(() => Readable.from([content.subarray(0, 7), content.subarray(7)]), smtp('ann@example.test'), 'ann@example.test');
    assert.equal(verification.authentication.dkim, 'pass');
  });

  it('fails, rather than giving a verdict, when the message cannot be read', async () => {
    const broken = () =>
      new Readable({
        read() {
          this.destroy(new Error('storage read failed'));
        },
      });
    await assert.rejects(check(broken, smtp('ann@example.test'), 'ann@example.test'), /storage read failed/);
  });

  it('fails a signature once the message is altered after signing', async () => {
    const content = await signed(message('ann@example.test'), 'example.test', strong.privateKey);
    const alteredHeader = Buffer.from(content.toString().replace('Quarterly numbers', 'Urgent: wire transfer'));
    const verification = await check(alteredHeader, smtp('ann@outside.test', '203.0.113.9'), 'ann@example.test');
    assert.equal(verification.authentication.dkim, 'fail');
    assert.equal(verification.authentication.dmarc, 'fail');
    assert.equal(verification.authentication.sender, 'failed');
    // mailauth words a body hash that does not match as neutral ("body hash did not verify"): not a pass either way.
    const alteredBody = Buffer.from(content.toString().replace('The numbers are in.', 'Wire the money now.'));
    const body = await check(alteredBody, smtp('ann@outside.test', '203.0.113.9'), 'ann@example.test');
    assert.ok(['fail', 'neutral'].includes(body.authentication.dkim), body.authentication.dkim);
    assert.equal(body.authentication.dmarc, 'fail');
  });

  it('does not pass a signature made with a 512-bit key', async () => {
    const verification = await check(await signed(message('ann@weak.test'), 'weak.test', weak.privateKey), smtp('ann@weak.test'), 'ann@weak.test');
    assert.equal(verification.authentication.dkim, 'policy');
    assert.equal(verification.authentication.dmarc, 'fail');
  });

  it('gives a malformed or truncated signature a verdict of its own', async () => {
    const truncated = message('ann@example.test', 'DKIM-Signature: v=1; a=rsa-sha256; d=example.test; s=sel; b=AAAA\r\n');
    const verification = await check(truncated, smtp('ann@example.test'), 'ann@example.test');
    assert.ok(['neutral', 'permerror', 'fail'].includes(verification.authentication.dkim), verification.authentication.dkim);
    assert.equal(verification.authentication.spf, 'pass');
    assert.equal(verification.action.action, 'accept');
  });

  it('checks only the first 10 of 50 signatures', async () => {
    let keyLookups = 0;
    const counting: DnsResolve = async (name, rrtype) => {
      if (name.includes('_domainkey')) keyLookups++;
      return fakeDns(name, rrtype);
    };
    const content = await signed(message('ann@example.test'), 'example.test', strong.privateKey, 50);
    assert.equal(content.toString().match(/^DKIM-Signature:/gm)?.length, 50);
    const verification = await check(content, smtp('ann@example.test'), 'ann@example.test', { resolve: counting });
    assert.equal(verification.authentication.dkim, 'pass');
    assert.equal(keyLookups, 10);
    assert.equal(verification.trace.toString().match(/dkim=/g)?.length, 10);
  });

  it('gives a 10,000-character SPF record a verdict', async () => {
    const verification = await check(message('ann@long.test'), smtp('ann@long.test'), 'ann@long.test');
    assert.ok(['fail', 'permerror'].includes(verification.authentication.spf), verification.authentication.spf);
  });

  it('stops an SPF include loop with permerror', async () => {
    const verification = await check(message('ann@loop.test'), smtp('ann@loop.test'), 'ann@loop.test');
    assert.equal(verification.authentication.spf, 'permerror');
  });

  it('answers temperror once the DNS budget is spent on a DNS that never answers', async () => {
    const verification = await check(
      await signed(message('ann@example.test'), 'example.test', strong.privateKey),
      smtp('ann@example.test'),
      'ann@example.test',
      {
        resolve: silentDns,
        dnsBudgetMs: 200,
      },
    );
    assert.deepEqual(verification.authentication, {
      spf: 'temperror',
      dkim: 'temperror',
      dmarc: 'temperror',
      arc: 'none',
      fromDomain: 'example.test',
      sender: 'unverified',
    });
    assert.deepEqual(verification.action, { action: 'accept' });
  });

  it('refuses a DMARC p=reject failure, or quarantines it when told to', async () => {
    const forged = message('ceo@strict.test');
    const refused = await check(forged, smtp('ceo@strict.test'), 'ceo@strict.test');
    assert.equal(refused.action.action, 'reject');
    assert.equal((await check(forged, smtp('ceo@strict.test'), 'ceo@strict.test', { dmarcRejectAs: 'quarantine' })).action.action, 'spam');
  });

  it('sends a DMARC p=quarantine failure to Spam', async () => {
    const verification = await check(message('ann@quarantine.test'), smtp('ann@quarantine.test'), 'ann@quarantine.test');
    assert.equal(verification.action.action, 'spam');
    assert.equal(verification.authentication.sender, 'failed');
  });

  it('unmasks a colleague forged from outside, whatever the other checks say', async () => {
    const verification = await check(message('alice@letterbox.test'), smtp('', OUTSIDE), 'alice@letterbox.test');
    assert.equal(verification.authentication.sender, 'forged-colleague');
    assert.equal(verification.action.action, 'spam');
  });

  it('marks local delivery internal, with a Received header and no checks', async () => {
    const verification = await check(message('alice@letterbox.test'), { channel: 'local' }, 'alice@letterbox.test', { resolve: silentDns });
    assert.equal(verification.authentication.sender, 'internal');
    assert.match(verification.trace.toString(), /^Received: by mx\.letterbox\.test \(Letterbox local delivery\)\r\n id /);
  });

  it("takes the trusted gateway's results, and only its", async () => {
    const gateway = { trustedAuthservId: 'gw.example.net', resolve: silentDns, dnsBudgetMs: 50 };
    const trusted = await check(
      message('ann@example.test'),
      { channel: 'http', trustedResults: 'gw.example.net; spf=pass smtp.mailfrom=example.test; dkim=pass; dmarc=pass (p=REJECT)' },
      'ann@example.test',
      gateway,
    );
    assert.deepEqual(trusted.authentication, { spf: 'pass', dkim: 'pass', dmarc: 'pass', arc: 'none', fromDomain: 'example.test', sender: 'verified' });
    assert.match(trusted.trace.toString(), /Authentication-Results: mx\.letterbox\.test;\r\n spf=pass \(as checked by gw\.example\.net\)/);
    const other = await check(message('ann@example.test'), { channel: 'http', trustedResults: 'evil.example; dmarc=pass' }, 'ann@example.test', gateway);
    assert.equal(other.authentication.dmarc, 'temperror');
  });

  it('removes only an Authentication-Results claiming its own authserv-id from the stored message', () => {
    const keep = verifier().keepStored;
    const field = (raw: string) => ({ name: 'authentication-results', raw: Buffer.from(raw) });
    assert.equal(keep(field('Authentication-Results: MX.letterbox.test; dmarc=pass\r\n')), false);
    assert.equal(keep(field('Authentication-Results: (spoof) mx.letterbox.test 1;\r\n dkim=pass\r\n')), false);
    assert.equal(keep(field('Authentication-Results: gw.example.net; dmarc=pass\r\n')), true);
    assert.equal(keep({ name: 'subject', raw: Buffer.from('Subject: mx.letterbox.test; x\r\n') }), true);
  });
});

function keyPair(bits: number): { privateKey: string; publicKey: string } {
  const pair = generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}
