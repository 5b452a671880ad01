import type { Database } from '@letterbox/db';
import { DkimKeyCipher, DkimSigningKeys } from '@letterbox/dkim';
import { TEST_DKIM_KEY_ENCRYPTION_KEY } from '@letterbox/dkim/testing';
import { BounceAddresses } from '../deliver/bounce-addresses';

export const TEST_BOUNCE_TOKEN_SECRET = 'a-bounce-token-secret-of-the-tests-only';

/** What SendDelivery needs for the messages it hands to the provider: bounce addresses, and the test database's DKIM keys. */
export function outgoingMailOptions(db: Database) {
  return {
    bounceAddresses: new BounceAddresses(TEST_BOUNCE_TOKEN_SECRET),
    dkimKeys: new DkimSigningKeys(db.sql, DkimKeyCipher.fromSetting(TEST_DKIM_KEY_ENCRYPTION_KEY)),
  };
}
