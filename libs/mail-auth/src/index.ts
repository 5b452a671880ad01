export { mailAuthenticationSchema, type MailAuthentication, type InboundOrigin, type TlsUse } from './mail-authentication';
export { MailVerifier, type MailVerifierOptions, type Verification } from './mail-verifier';
