export { changePassword, confirmPassword, createOffice, createUser, removeUser, SYSTEM_MAILBOXES, type NewUser, type CreatedUser, type SessionAnnouncer } from './accounts';
export { CachedUserSessions, type SessionCacheOptions } from './cached-user-sessions';
