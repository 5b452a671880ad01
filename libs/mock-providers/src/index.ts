export { startMockSmtp, type MockSmtp, type MockSmtpOptions } from './mock-smtp';
export { startMockProvidersHttp, type MockProvidersHttpOptions } from './mock-providers-http';
export { smtpBehaviourSchema, DEFAULT_SMTP_BEHAVIOUR, type SmtpBehaviour, type SmtpBehaviourPatch } from './smtp-behaviour';
export type { ReceivedMail, MailFilter } from './received-mails';
export type { AccountCounts } from './account-counters';
export { createMockFcm, type MockFcm, type AcceptedPush, type TokenCounts } from './mock-fcm';
export { fcmBehaviourSchema, DEFAULT_FCM_BEHAVIOUR, type FcmBehaviour, type FcmBehaviourPatch } from './fcm-behaviour';
export type { FcmErrorCode } from './fcm-errors';
