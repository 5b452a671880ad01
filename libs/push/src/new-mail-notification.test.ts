import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newMailNotification } from './new-mail-notification';

test('a new mail’s notification: the sender as title, the subject as body, clipped whole characters', () => {
  const short = newMailNotification({ userId: 1, mailId: 9, from: 'Alice <alice@example.test>', subject: 'Lunch?' });
  assert.deepEqual(short, { title: 'Alice <alice@example.test>', body: 'Lunch?', data: { mailId: '9', type: 'new-mail' }, collapseId: 'mail-9' });
  const long = newMailNotification({ userId: 1, mailId: 9, from: 'x'.repeat(500), subject: '😀'.repeat(500) });
  assert.equal([...long.title].length, 120);
  assert.equal([...long.body].length, 240);
  assert.ok(long.body.endsWith('😀…'));
});
