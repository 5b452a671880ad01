import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeMailboxName, encodeMailboxName } from './mailbox-name-utf7';
import { ImapCommandError } from './tokens';

describe('modified UTF-7 mailbox names (RFC 3501 5.1.3)', () => {
  const pairs: [string, string][] = [
    ['INBOX', 'INBOX'],
    ['Tom & Jerry', 'Tom &- Jerry'],
    ['~peter/mail/台北/日本語', '~peter/mail/&U,BTFw-/&ZeVnLIqe-'],
    ['Entwürfe', 'Entw&APw-rfe'],
    ['보낸 편지함', '&vPSwuA- &07jJwNVo-'],
    ['📬', '&2D3c7A-'],
  ];

  test('encodes and decodes the RFC example and others, both ways', () => {
    for (const [name, encoded] of pairs) {
      assert.equal(encodeMailboxName(name), encoded);
      assert.equal(decodeMailboxName(encoded), name);
    }
  });

  test('refuses what is not modified UTF-7', () => {
    for (const bad of ['a&b', '&AGE', 'Entwürfe', '&AGEAYg-', '&A-']) assert.throws(() => decodeMailboxName(bad), ImapCommandError, bad);
  });
});
