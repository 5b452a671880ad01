export { changePassword, confirmPassword, createOffice, createUser, removeUser, SYSTEM_MAILBOXES, type NewUser, type CreatedUser, type SessionAnnouncer } from './accounts';
export { CachedUserSessions, type SessionCacheOptions } from './cached-user-sessions';
export { identitiesOf, type UserIdentity } from './user-identities';
export { Authentication, type SignedIn, type UserProfile } from './authentication';
export { TooManyWrongPasswordsError, UserGoneError, WrongCredentialsError, WrongCurrentPasswordError } from './account-errors';
