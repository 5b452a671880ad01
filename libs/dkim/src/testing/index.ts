/** Shared by the DKIM tests and those of the apps that sign and publish (as @letterbox/dkim/testing); not part of the library. */
export { txtResolver } from './txt-resolver';
export { testSigningKeys } from './test-signing-keys';

/** Any 32 bytes: the keys the tests make are sealed under it, whichever library's test makes or reads them. */
export const TEST_DKIM_KEY_ENCRYPTION_KEY = Buffer.alloc(32, 0x5a).toString('base64');
