import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { verifyPassword } from '@letterbox/auth';
import { dkimKeyConfig, loadConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { DkimKeyCipher, publishedDkimRecords } from '@letterbox/dkim';
import { REPO_ROOT, startReadApiProcess, testDatabase, testQueuePrefix, TYPESCRIPT_ON_LOAD, type ApiProcess } from '@letterbox/testing';
import { adminInProcess, type AdminRun } from './testing/admin-in-process';

describe('the admin command line: npm run admin -- <command>', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let api: ApiProcess;
  const domain = `${randomUUID().slice(0, 12)}.test`;

  /** The command as an operator runs it, in a process of its own, against the test database (unless `env` says otherwise). */
  async function adminProcess(env: NodeJS.ProcessEnv, ...args: string[]): Promise<AdminRun> {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [...TYPESCRIPT_ON_LOAD, 'apps/admin-cli/src/main.ts', ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, QUEUE_PREFIX: queuePrefix, ...env },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
      return { code, stdout, stderr };
    }
  }

  /** The same command run in this process (a process's start costs seconds): what main.ts runs, with its output kept. */
  async function admin(...args: string[]): Promise<AdminRun> {
    return adminInProcess(args, { QUEUE_PREFIX: queuePrefix });
  }

  const userRow = async (email: string) =>
    (await db.sql.query('SELECT id, role, state, password_change_required, password_hash, office_id FROM users WHERE email = $1', [email])).rows[0];

  before(async () => {
    db = testDatabase();
    api = await startReadApiProcess({ env: { QUEUE_PREFIX: queuePrefix } });
  });

  after(async () => {
    await api?.stop();
    await db?.close();
  });

  test('an office, an administrator and a user are made; the user signs in, and is listed', async () => {
    const office = await adminProcess({}, 'office', 'add', domain.toUpperCase(), 'CLI Test Office');
    assert.equal(office.code, 0, office.stderr);
    assert.match(office.stdout, new RegExp(`^office ${domain} "CLI Test Office" created \\(id \\d+\\)\\n$`));
    const boss = await admin('user', 'add', `boss@${domain}`, '--name', 'The Boss', '--password', 'initial password', '--admin');
    assert.equal(boss.code, 0, boss.stderr);
    assert.match(boss.stdout, /user boss@.* created .*role admin.*must be changed at first sign-in/);
    const row = await userRow(`boss@${domain}`);
    assert.deepEqual([row.role, row.state, row.password_change_required], ['admin', 'active', true]);
    assert.equal(await verifyPassword(row.password_hash, 'initial password'), true);
    const mia = await admin('user', 'add', `mia@${domain}`, '--name', 'Mia Wong', '--password', 'initial password');
    assert.equal(mia.code, 0, mia.stderr);
    const signIn = await fetch(`${api.url}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `mia@${domain}`, password: 'initial password' }),
    });
    assert.equal(signIn.status, 200);
    assert.equal(((await signIn.json()) as { passwordChangeRequired: boolean }).passwordChangeRequired, true);
    const listed = await admin('user', 'list', '--office', domain);
    assert.equal(
      listed.stdout,
      `EMAIL\tROLE\tSTATE\tNAME\tOFFICE\nboss@${domain}\tadmin\tactive\tThe Boss\t${domain}\nmia@${domain}\tuser\tactive\tMia Wong\t${domain}\n`,
    );
    const { rows } = await db.sql.query('SELECT actor, action, target FROM audit_events WHERE office_id = $1 ORDER BY id', [row.office_id]);
    assert.deepEqual(rows, [
      { actor: 'cli', action: 'office.create', target: domain },
      { actor: 'cli', action: 'user.create', target: `boss@${domain}` },
      { actor: 'cli', action: 'user.create', target: `mia@${domain}` },
      { actor: `mia@${domain}`, action: 'auth.sign-in', target: `user:${(await userRow(`mia@${domain}`)).id}` },
    ]);
  });

  test('disabling a user and resetting a password end their tokens in the running API at once; a domain is added', async () => {
    for (const [name, args] of [
      ['dora', ['user', 'disable']],
      ['rick', ['user', 'reset-password']],
    ] as const) {
      const email = `${name}@${domain}`;
      assert.equal((await admin('user', 'add', email, '--name', name, '--password', 'initial password')).code, 0);
      const token = await api.login(email, 'initial password');
      const me = () => fetch(`${api.url}/v2/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal((await me()).status, 200);
      const done = await admin(...args, email, ...(name === 'rick' ? ['--password', 'reset password'] : []));
      assert.equal(done.code, 0, done.stderr);
      assert.equal((await me()).status, 401, `${args.join(' ')}: announced, not left to the session cache's time`);
    }
    assert.equal((await userRow(`dora@${domain}`)).state, 'disabled');
    assert.equal(await verifyPassword((await userRow(`rick@${domain}`)).password_hash, 'reset password'), true);
    const added = await admin('domain', 'add', domain, `eu.${domain}`);
    assert.equal(added.stdout, `domain eu.${domain} added to office ${domain}\n`);
    assert.equal((await admin('user', 'add', `eve@eu.${domain}`, '--name', 'Eve', '--password', 'initial password')).code, 0);
  });

  test('dkim <domain> makes an RSA and an Ed25519 key and prints the records to publish; --retire stops one signing', async () => {
    const made = await admin('dkim', domain);
    assert.equal(made.code, 0, made.stderr);
    const published = await publishedDkimRecords(db.sql);
    const rows = (
      await db.sql.query<{ selector: string; private_key_encrypted: Buffer }>(
        'SELECT k.selector, k.private_key_encrypted FROM dkim_keys k JOIN domains d ON d.id = k.domain_id WHERE d.name = $1 ORDER BY k.id',
        [domain],
      )
    ).rows;
    assert.deepEqual(rows.map((row) => row.selector.slice(-1)).sort(), ['e', 'r']);
    for (const { selector, private_key_encrypted } of rows) {
      const dnsName = `${selector}._domainkey.${domain}`;
      assert.ok(made.stdout.includes(`${dnsName}. IN TXT "${published.get(dnsName)}"`), `${dnsName} printed as published`);
      // The demo's key (the tests run as the demo): what is stored opens under it, and is printed nowhere.
      const privateKey = DkimKeyCipher.fromSetting(loadConfig(dkimKeyConfig).DKIM_KEY_ENCRYPTION_KEY).decrypt(private_key_encrypted).toString('base64');
      assert.ok(!made.stdout.includes(privateKey.slice(-40)));
    }
    assert.match(made.stdout, new RegExp(`^${domain.replaceAll('.', '\\.')}\\. IN TXT "v=spf1 .*~all"$`, 'm'));
    assert.match(made.stdout, new RegExp(`^_dmarc\\.${domain.replaceAll('.', '\\.')}\\. IN TXT "v=DMARC1; p=quarantine`, 'm'));
    const rsa = rows.find((row) => row.selector.endsWith('r'))?.selector ?? '';
    const retired = await admin('dkim', domain, '--retire', rsa);
    assert.equal(retired.code, 0, retired.stderr);
    assert.match(retired.stdout, new RegExp(`DKIM key ${rsa} of ${domain} retired`));
    assert.equal((await publishedDkimRecords(db.sql)).has(`${rsa}._domainkey.${domain}`), false);
    const again = await admin('dkim', domain, '--retire', rsa);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, new RegExp(`${domain} has no active DKIM key with the selector ${rsa}`));
    const unknown = await admin('dkim', 'no-office.test');
    assert.match(unknown.stderr, /no office has the domain no-office.test/);
    const { rows: audit } = await db.sql.query<{ action: string }>(
      "SELECT action FROM audit_events e JOIN domains d ON d.office_id = e.office_id WHERE d.name = $1 AND action LIKE 'dkim.%' ORDER BY e.id",
      [domain],
    );
    assert.deepEqual(
      audit.map((row) => row.action),
      ['dkim.generate', 'dkim.retire'],
    );
  });

  test('bad input: a non-zero exit and a clear message, nothing changed', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /no command given[\s\S]*usage: npm run admin/],
      [['user', 'fly'], /unknown command: user fly/],
      [['user', 'add', `x@${domain}`, '--password', 'initial password'], /missing --name/],
      [['user', 'add', `x@${domain}`, '--name', 'X', '--password', 'short'], /--password: must be at least 8 characters/],
      [['user', 'add', 'not-an-address', '--name', 'X', '--password', 'initial password'], /<email>: /],
      [['user', 'add', `x@${domain}`, '--name', 'X', '--password', 'initial password', '--root'], /Unknown option '--root'/],
      [['user', 'add', `boss@${domain}`, '--name', 'Again', '--password', 'initial password'], /the address boss@.* exists already/],
      [['user', 'add', 'x@no-office.test', '--name', 'X', '--password', 'initial password'], /no office has the domain no-office.test/],
      [['user', 'disable', `nobody@${domain}`], /no user has the address nobody@/],
      [['user', 'list', '--office', 'no-office.test'], /no office has the domain no-office.test/],
      [['office', 'add', domain, 'Twice'], /the domain .* belongs to an office already/],
      [['domain', 'add', 'no-office.test', 'new.test'], /no office has the domain no-office.test/],
      [['domain', 'add', domain], /missing <new-domain>/],
    ];
    const unknown = await adminProcess({}, 'user', 'fly');
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /unknown command: user fly[\s\S]*usage: npm run admin/);
    for (const [args, message] of cases) {
      const run = await admin(...args);
      assert.notEqual(run.code, 0, args.join(' '));
      assert.match(run.stderr, message, args.join(' '));
      assert.equal(run.stdout, '', args.join(' '));
    }
    assert.equal(await userRow(`x@${domain}`), undefined);
  });

  test('the configuration is checked before anything is done', async () => {
    const run = await adminProcess({ DATABASE_URL: 'mysql://nowhere' }, 'user', 'list');
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /DATABASE_URL/);
  });
});
