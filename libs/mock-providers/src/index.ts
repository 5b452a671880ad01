export { startMockSmtp, type MockSmtp } from './mock-smtp';
export { startMockProvidersHttp } from './mock-providers-http';
export { smtpBehaviourSchema, DEFAULT_SMTP_BEHAVIOUR } from './smtp-behaviour';
export type { ReceivedMail, ReceivedOverTls } from './received-mails';
export { selfSignedCertificate, type CertificateAndKey } from './self-signed-certificate';
export { createMockFcm, type MockFcm } from './mock-fcm';
export { fcmBehaviourSchema, DEFAULT_FCM_BEHAVIOUR, type FcmBehaviourPatch } from './fcm-behaviour';
export { startMockDns, type MockDns, type MockDnsOptions } from './mock-dns';
export { MOCK_DNS_ZONES, zoneTable, type ZoneTable } from './mock-dns-zones';
