import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mailChangeEvent } from './mail-change-event';

const state = { id: 7, mailboxId: 3, seen: true, flagged: false, important: true, deleted: false };

test('a change is announced with the stored value of each field it touched, and no other', () => {
  assert.deepEqual(mailChangeEvent(state, ['seen']), { type: 'mail.updated', mailIds: [7], changes: { seen: true } });
  assert.deepEqual(mailChangeEvent(state, ['flagged', 'mailboxId']), { type: 'mail.updated', mailIds: [7], changes: { flagged: false, mailboxId: 3 } });
});

test('a mail deleted for good is announced as deleted, whatever was touched', () => {
  assert.deepEqual(mailChangeEvent({ ...state, deleted: true }, ['mailboxId']), { type: 'mail.deleted', mailIds: [7] });
});
