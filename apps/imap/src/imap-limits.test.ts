import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, type TestUser } from '@letterbox/testing';
import { loadImapConfig } from './imap.config';
import { startImap, type RunningImap } from './start-imap';
import { plaintextImapEnv } from './testing/plaintext-imap';
import { RawImapClient } from './testing/raw-imap-client';

const PER_ADDRESS = 4;
const PER_USER = 2;
/** Far below what the configuration takes (30 minutes): set on the loaded configuration, as only a test may. */
const IDLE_TIMEOUT_MS = 3000;

describe('the IMAP app: idle sessions closed, connections limited per user and per address', () => {
  let db: Database;
  let imap: RunningImap;
  let user: TestUser;
  let env: NodeJS.ProcessEnv;
  const open: RawImapClient[] = [];

  const connect = async () => {
    const connection = await RawImapClient.connect(imap.port);
    open.push(connection.client);
    return connection;
  };
  const signIn = async (client: RawImapClient, tag: string) => (await client.command(tag, `LOGIN ${user.email} "${user.password}"`)).at(-1) ?? '';
  const closeAll = () => open.splice(0).forEach((client) => client.close());

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap-limits');
    env = await plaintextImapEnv({ IMAP_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS), IMAP_MAX_CONNECTIONS_PER_USER: String(PER_USER) });
    imap = await startImap({ ...loadImapConfig(env), IMAP_IDLE_TIMEOUT_MS: IDLE_TIMEOUT_MS });
  });

  after(async () => {
    closeAll();
    await imap?.close();
    await db?.close();
  });

  test('the idle timeout is 30 minutes unless set, and never set below what RFC 3501 asks', () => {
    assert.equal(loadImapConfig(env).IMAP_IDLE_TIMEOUT_MS, 30 * 60_000);
    assert.equal(loadImapConfig({ ...env, IMAP_IDLE_TIMEOUT_MS: String(45 * 60_000) }).IMAP_IDLE_TIMEOUT_MS, 45 * 60_000);
    assert.throws(() => loadImapConfig({ ...env, IMAP_IDLE_TIMEOUT_MS: '60000' }), /IMAP_IDLE_TIMEOUT_MS/);
  });

  test('a session with nothing said either way for the idle timeout is told BYE and closed, signed in or not', async () => {
    const { client: fresh } = await connect();
    const { client: idle } = await connect();
    assert.match(await signIn(idle, 'b1'), /^b1 OK /);
    assert.equal(await idle.line(), '* BYE Autologout; idle for too long');
    await idle.closed();
    assert.equal(await fresh.line(), '* BYE Autologout; idle for too long');
    await fresh.closed();
    closeAll();
  });

  test('past the sessions one account may have, LOGIN is refused with LIMIT until one closes', async () => {
    const sessions = await Promise.all(Array.from({ length: PER_USER + 1 }, () => connect()));
    const answers = [];
    for (const [index, { client }] of sessions.entries()) answers.push(await signIn(client, `u${index}`));
    assert.deepEqual(
      answers.slice(0, PER_USER).map((answer) => /^u\d OK /.test(answer)),
      [true, true],
    );
    assert.equal(answers[PER_USER], `u${PER_USER} NO [LIMIT] Too many IMAP connections for this account; close some`);
    sessions[0].client.close();
    assert.match(
      await eventually(
        () => signIn(sessions[PER_USER].client, `v${Date.now()}`),
        (answer) => / OK /.test(answer),
      ),
      / OK /,
    );
    closeAll();
  });

  test('past the connections one address may have open, a new one is told BYE [UNAVAILABLE] until one closes', async () => {
    await eventually(
      async () => {
        closeAll();
        const connections = await Promise.all(Array.from({ length: PER_ADDRESS }, () => connect()));
        return connections.every(({ greeting }) => greeting.startsWith('* OK '));
      },
      (allGreeted) => allGreeted,
    );
    const { client: refused, greeting } = await connect();
    assert.equal(greeting, '* BYE [UNAVAILABLE] Too many connections from your address');
    await refused.closed();
    open.shift()?.close();
    const greeted = await eventually(
      async () => {
        const { client, greeting: next } = await connect();
        if (!next.startsWith('* OK ')) client.close();
        return next;
      },
      (next) => next.startsWith('* OK '),
    );
    assert.match(greeted, /^\* OK /);
    closeAll();
  });
});

/** Tries `attempt` until `done` says its answer is the awaited one: a closed connection's place is given back when the server sees it close. */
async function eventually<T>(attempt: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  for (let tries = 0; ; tries++) {
    const answer = await attempt();
    if (done(answer) || tries === 50) return answer;
    await sleep(50);
  }
}
