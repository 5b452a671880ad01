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
export type { AccountProfile } from './account-profile';
export { profileChanges, ProfileSettings, type ProfileChanges } from './profile-settings';
export { USER_LOCALES, type UserLocale } from './user-locale';
export { SecurityEvents } from './security-events';
export { SecondFactorCheck } from './two-factor/second-factor';
export { TwoFactorSetup } from './two-factor/two-factor-setup';
export { TwoFactorStore } from './two-factor/two-factor-store';
export {
  AccountDisabledError,
  AccountSetupRequiredError,
  AppPasswordLimitError,
  AppPasswordNotFoundError,
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
export {
  AppPasswords,
  MAX_APP_PASSWORDS,
  appPasswordSchema,
  appPasswordListSchema,
  newAppPasswordSchema,
  createdAppPasswordSchema,
  type CreatedAppPassword,
} from './app-passwords/app-passwords';
export { AppPasswordStore, type AppPasswordView } from './app-passwords/app-password-store';
export {
  mailClientSignIn,
  type MailClientProtocol,
  type MailClientSignInRequest,
  type MailClientSignInServices,
  type MailClientUser,
  type SignInMailClient,
} from './mail-clients/mail-client-sign-in';
export { signInMailClientWith, type MailClientSignInSettings } from './mail-clients/mail-client-sign-in-wiring';
