export { confirmPassword, createOffice, createUser, removeUser, type SessionAnnouncer } from './accounts';
export { insertOffice, insertUser, SYSTEM_MAILBOXES, type CreatedUser, type UserRow } from './account-rows';
export { CachedUserSessions } from './cached-user-sessions';
export { identitiesOf, ownAddressesOf } from './user-identities';
export {
  IdentitySettings,
  IdentityNotFoundError,
  identitySchema,
  identityListSchema,
  identityChangesSchema,
  type Identity,
  type IdentityChanges,
} from './identities/identity-settings';
export { Authentication, type SignedIn } from './authentication';
export { MailClientSignIn, type MailClientUser } from './mail-client-sign-in';
export type { AccountProfile } from './account-profile';
export { profileChanges, ProfileSettings, type ProfileChanges } from './profile-settings';
export { USER_LOCALES, type UserLocale } from './user-locale';
export { SecurityEvents } from './security-events';
export { SecondFactorCheck } from './two-factor/second-factor';
export { TwoFactorSetup } from './two-factor/two-factor-setup';
export { TwoFactorStore } from './two-factor/two-factor-store';
export {
  AccountDisabledError,
  AppPasswordRequiredError,
  TooManyWrongPasswordsError,
  TotpAlreadyOnError,
  TotpInvalidError,
  TotpNotStartedError,
  TotpRequiredError,
  UserGoneError,
  WrongCredentialsError,
  WrongCurrentPasswordError,
} from './account-errors';
export { RevocationPublisher, sessionRevocationsChannel } from './session-revocations';
