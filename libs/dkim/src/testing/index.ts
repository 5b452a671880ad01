/** Shared by the DKIM tests and those of the apps that sign and publish (as @letterbox/dkim/testing); not part of the library. */
export { txtResolver } from './txt-resolver';
export { testSigningKeys } from './test-signing-keys';
