export { startMockSmtp, type MockSmtp, type MockSmtpOptions } from './mock-smtp';
export { startMockProvidersHttp, type MockProvidersHttpOptions } from './mock-providers-http';
export { smtpBehaviourSchema, DEFAULT_SMTP_BEHAVIOUR, type SmtpBehaviour, type SmtpBehaviourPatch } from './smtp-behaviour';
export type { ReceivedMail, MailFilter } from './received-mails';
export type { AccountCounts } from './account-counters';
