export { confirmPassword, createOffice, createUser, removeUser, type SessionAnnouncer } from './accounts';
export { insertOffice, insertUser, SYSTEM_MAILBOXES, type CreatedUser, type UserRow } from './account-rows';
export { CachedUserSessions } from './cached-user-sessions';
export { identitiesOf } from './user-identities';
export { Authentication } from './authentication';
export { TooManyWrongPasswordsError, UserGoneError, WrongCredentialsError, WrongCurrentPasswordError } from './account-errors';
export { RevocationPublisher, sessionRevocationsChannel } from './session-revocations';
