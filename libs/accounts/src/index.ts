export { confirmPassword, createOffice, createUser, SYSTEM_MAILBOXES, type NewUser, type CreatedUser } from './accounts';
