import type { Database } from '@letterbox/db';
import { DkimKeyCipher, DkimSigningKeys } from '@letterbox/dkim';
import { BounceAddresses } from '../deliver/bounce-addresses';

export const TEST_BOUNCE_TOKEN_SECRET = 'a-bounce-token-secret-of-the-tests-only';
/** Any 32 bytes: the keys the tests generate are sealed under it. */
export const TEST_DKIM_KEY_ENCRYPTION_KEY = Buffer.alloc(32, 0x5a).toString('base64');

/** What SendDelivery needs for the messages it hands to the provider: bounce addresses, and the test database's DKIM keys. */
export function outgoingMailOptions(db: Database) {
  return {
    bounceAddresses: new BounceAddresses(TEST_BOUNCE_TOKEN_SECRET),
    dkimKeys: new DkimSigningKeys(db.sql, DkimKeyCipher.fromSetting(TEST_DKIM_KEY_ENCRYPTION_KEY)),
  };
}
