import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Database } from '@letterbox/db';
import { accessTokenFor, createTestUser, SendClient, waitFor } from '@letterbox/testing';

/** Shared by the end-to-end tests of workers that die or work long; not part of the worker. */

/** Sends of one new user, each to a recipient of its own, so the provider's count per recipient is per send. */
export interface SendBatch {
  ids: number[];
  recipients: string[];
}

export interface SendRow {
  id: string;
  status: string;
  attempts: number;
}

export async function sendBatch(db: Database, sendApiUrl: string, name: string, count: number): Promise<SendBatch> {
  const user = await createTestUser(db, name);
  const client = new SendClient(sendApiUrl, accessTokenFor(user));
  const run = randomUUID().slice(0, 8);
  const recipients = Array.from({ length: count }, (_, index) => `${name}${index}.${run}@example.test`);
  const answers = await Promise.all(recipients.map((to, index) => client.send({ to: [to], subject: `${name} ${index}`, text: 'in flight' })));
  for (const answer of answers) assert.equal(answer.status, 202, JSON.stringify(answer.body));
  return { ids: answers.map((answer) => answer.body.id), recipients };
}

export async function sendRows(db: Database, ids: number[]): Promise<SendRow[]> {
  const { rows } = await db.sql.query<SendRow>('SELECT id, status, attempts FROM outbound_sends WHERE id = ANY($1::bigint[]) ORDER BY id', [ids]);
  return rows;
}

/**
 * Waits until every send of the batch is being delivered, claimed `attempts` times, and a
 * little more: the messages' DATA is in then, and the provider answers after its latency.
 */
export async function waitUntilInFlight(db: Database, batch: SendBatch, attempts: number): Promise<void> {
  await waitFor(async () => (await sendRows(db, batch.ids)).every((row) => row.status === 'sending' && row.attempts >= attempts), {
    timeoutMs: 15_000,
    what: `all ${batch.ids.length} sends in flight (attempt ${attempts})`,
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
}
