export { confirmPassword, createOffice, createUser, removeUser, type CreatedUser } from './accounts';
export { CachedUserSessions } from './cached-user-sessions';
export { identitiesOf } from './user-identities';
export { Authentication } from './authentication';
export { TooManyWrongPasswordsError, UserGoneError, WrongCredentialsError, WrongCurrentPasswordError } from './account-errors';
