export {
  authResultSchema,
  senderVerdictSchema,
  mailAuthenticationSchema,
  type AuthResult,
  type SenderVerdict,
  type MailAuthentication,
  type InboundOrigin,
  type TlsUse,
  type MailAction,
} from './mail-authentication';
export { MailVerifier, MAX_DKIM_SIGNATURES, type MailVerifierOptions, type MessageToVerify, type Verification } from './mail-verifier';
export type { DmarcRejectAs } from './sender-policy';
export { budgetedResolver, type DnsResolve } from './dns-budget';
export { HeaderFieldFilter, filterHeaderFields, type HeaderField, type KeepField } from './header-field-filter';
export { parseAuthenticationResults, authservIdOf } from './authentication-results';
