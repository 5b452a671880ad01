import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DkimKeyView, OfficeDomain } from '@letterbox/admin';
import { dkimKeyConfig, loadConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { DkimKeyCipher, publishedDkimRecords } from '@letterbox/dkim';
import { testDatabase } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';
import { adminOffice, type AdminClient } from './testing/admin-client';

describe('admin API: DKIM keys and the DNS records of the office’s domains', () => {
  let db: Database;
  let api: RunningApi;
  let office: AdminClient;
  let other: AdminClient;

  before(async () => {
    db = testDatabase();
    api = await startReadApiServer();
    office = await adminOffice(db, api, 'dkim-admin');
    other = await adminOffice(db, api, 'dkim-other');
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  /** Every private key of the domain as stored, decrypted under the demo's key (the tests run as the demo): in no answer. */
  async function privateKeysOf(domain: string): Promise<string[]> {
    const cipher = DkimKeyCipher.fromSetting(loadConfig(dkimKeyConfig).DKIM_KEY_ENCRYPTION_KEY);
    const { rows } = await db.sql.query<{ private_key_encrypted: Buffer }>(
      'SELECT k.private_key_encrypted FROM dkim_keys k JOIN domains d ON d.id = k.domain_id WHERE d.name = $1',
      [domain],
    );
    return rows.map((row) => cipher.decrypt(row.private_key_encrypted).toString('base64'));
  }

  function holdsNoPrivateKey(answer: unknown, privateKeys: string[]): void {
    const text = JSON.stringify(answer);
    assert.doesNotMatch(text, /private/i);
    for (const privateKey of privateKeys) assert.ok(!text.includes(privateKey.slice(-32)), 'no private key in the answer');
  }

  test('generating makes an RSA and an Ed25519 key under new selectors; the domain list shows them with the DKIM, SPF and DMARC records to publish', async () => {
    const { domain } = office.admin;
    const before = await office.call<{ domains: OfficeDomain[] }>('GET', '/v2/admin/domains');
    const fresh = before.body.domains.find((each) => each.name === domain);
    assert.deepEqual(fresh?.dkim, []);
    assert.deepEqual(fresh?.dmarc, { dnsName: `_dmarc.${domain}`, txt: 'v=DMARC1; p=quarantine; adkim=r; aspf=r' });
    assert.equal(fresh?.spf.dnsName, domain);
    assert.match(fresh?.spf.txt ?? '', /^v=spf1 .* ~all$/);

    const made = await office.call<{ dkim: DkimKeyView[] }>('POST', `/v2/admin/domains/${domain}/dkim`);
    assert.equal(made.status, 201);
    assert.deepEqual(made.body.dkim.map((key) => key.algorithm).sort(), ['ed25519-sha256', 'rsa-sha256']);
    const published = await publishedDkimRecords(db.sql);
    for (const key of made.body.dkim) {
      assert.match(key.selector, /^lb\d{8}[re]$/);
      assert.equal(key.dnsName, `${key.selector}._domainkey.${domain}`);
      assert.match(key.txt, key.algorithm === 'rsa-sha256' ? /^v=DKIM1; k=rsa; p=MII[A-Za-z0-9+/]+=*$/ : /^v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/);
      assert.equal(published.get(key.dnsName), key.txt, 'what the DNS serves is what the admin is told to publish');
      assert.equal(key.retiredAt, null);
    }
    const second = await office.call<{ dkim: DkimKeyView[] }>('POST', `/v2/admin/domains/${domain.toUpperCase()}/dkim`);
    assert.equal(second.status, 201);
    assert.deepEqual(second.body.dkim.map((key) => key.selector).sort(), made.body.dkim.map((key) => key.selector.replace(/([re])$/, '-2$1')).sort());

    const listed = await office.call<{ domains: OfficeDomain[] }>('GET', '/v2/admin/domains');
    const shown = listed.body.domains.find((each) => each.name === domain);
    assert.equal(shown?.dkim.length, 4);
    const privateKeys = await privateKeysOf(domain);
    assert.equal(privateKeys.length, 4);
    for (const answer of [made.body, second.body, listed.body]) holdsNoPrivateKey(answer, privateKeys);
  });

  test('retiring a key stops its signing and publishing, shown as retired; an unknown key, or another office’s domain, is a 404 problem', async () => {
    const { domain } = other.admin;
    const made = await other.call<{ dkim: DkimKeyView[] }>('POST', `/v2/admin/domains/${domain}/dkim`);
    const rsa = made.body.dkim.find((key) => key.algorithm === 'rsa-sha256') as DkimKeyView;
    const retired = await other.call<DkimKeyView>('POST', `/v2/admin/domains/${domain}/dkim/${rsa.selector}/retire`);
    assert.equal(retired.status, 200);
    assert.ok(retired.body.retiredAt);
    holdsNoPrivateKey(retired.body, await privateKeysOf(domain));
    assert.equal((await publishedDkimRecords(db.sql)).has(rsa.dnsName), false);
    const shown = (await other.call<{ domains: OfficeDomain[] }>('GET', '/v2/admin/domains')).body.domains.find((each) => each.name === domain);
    assert.deepEqual(shown?.dkim.map((key) => [key.selector, key.retiredAt !== null]).sort(), made.body.dkim.map((key) => [key.selector, key === rsa]).sort());

    const again = await other.call('POST', `/v2/admin/domains/${domain}/dkim/${rsa.selector}/retire`);
    assert.equal(again.status, 404);
    assert.match(again.body.detail, /no active DKIM key with the selector/);
    const response = await fetch(`${api.url}/v2/admin/domains/nowhere-${domain}/dkim`, { method: 'POST', headers: { authorization: `Bearer ${other.token}` } });
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.match(((await response.json()) as { detail: string }).detail, new RegExp(`nowhere-${domain} is not a domain of this office`));
    assert.equal((await office.call('POST', `/v2/admin/domains/${domain}/dkim`)).status, 404, 'another office’s domain is not told apart from none');
    assert.equal((await office.call('POST', `/v2/admin/domains/${domain}/dkim/${made.body.dkim[1].selector}/retire`)).status, 404);
    assert.equal((await other.call('POST', '/v2/admin/domains/not a domain/dkim')).status, 400);
    const { rows } = await db.sql.query<{ action: string; target: string }>(
      "SELECT action, target FROM audit_events WHERE office_id = $1 AND action LIKE 'dkim.%' ORDER BY id",
      [other.admin.officeId],
    );
    assert.deepEqual(rows, [
      { action: 'dkim.generate', target: domain },
      { action: 'dkim.retire', target: domain },
    ]);
  });
});
