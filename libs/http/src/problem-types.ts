/**
 * Problem types (RFC 9457 `type`) a client acts on, beyond the status: what to ask the user for next. Every
 * other problem is `about:blank`, its status saying all a client needs.
 */
export const PROBLEM_TYPES = {
  /** The password was right; the account has two-factor sign-in on: send it again with `totp`. */
  totpRequired: 'https://letterbox.dev/problems/totp-required',
  /** The `totp` sent is not a current code nor an unused recovery code. */
  totpInvalid: 'https://letterbox.dev/problems/totp-invalid',
  /** An administrator set the password: the user must choose their own (POST /v2/auth/password) first. */
  passwordChangeRequired: 'https://letterbox.dev/problems/password-change-required',
  /** The office requires two-factor sign-in and the user has not set it up (POST /v2/auth/totp) yet. */
  totpSetupRequired: 'https://letterbox.dev/problems/totp-setup-required',
  /** The password was right, but an administrator disabled the account. */
  accountDisabled: 'https://letterbox.dev/problems/account-disabled',
  /** Incoming mail failed DMARC, and its From domain's policy is reject: a gateway bounces it rather than sending it again. */
  dmarcRejected: 'https://letterbox.dev/problems/dmarc-rejected',
} as const;
