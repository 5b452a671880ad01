/** Past the limit of wrong passwords for the account or the client address: they may try again after a while. */
export class TooManyWrongPasswordsError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`too many wrong passwords; try again in ${retryAfterSeconds} s`);
  }
}

/** No user has the email, or the password is not theirs: which of the two is not told. */
export class WrongCredentialsError extends Error {
  constructor() {
    super('the email or password is wrong');
  }
}

/** The signed-in user, whose token still stands, was removed meanwhile. */
export class UserGoneError extends Error {
  constructor() {
    super('the signed-in user no longer exists');
  }
}

/** The signed-in user's password, typed again to change it, is not theirs. */
export class WrongCurrentPasswordError extends Error {
  constructor() {
    super('the password is wrong');
  }
}

/** The password was right, and the account has two-factor sign-in on: the code is needed too. */
export class TotpRequiredError extends Error {
  constructor() {
    super('this account signs in with a second factor: send the code of the authenticator app (or a recovery code) as totp');
  }
}

/** The code sent is neither the authenticator's current one (or was used already) nor an unused recovery code. */
export class TotpInvalidError extends Error {
  constructor() {
    super('the code is wrong, expired or used already');
  }
}

/** The password was right, but an administrator disabled the account. */
export class AccountDisabledError extends Error {
  constructor() {
    super('this account is disabled; ask an administrator');
  }
}

/** Two-factor sign-in is on already: a new secret would lock the user out of their authenticator. */
export class TotpAlreadyOnError extends Error {
  constructor() {
    super('two-factor sign-in is on already; turn it off (DELETE /v2/auth/totp) to set it up again');
  }
}

/** Confirming a code with no secret being set up. */
export class TotpNotStartedError extends Error {
  constructor() {
    super('no two-factor setup is under way: start one with POST /v2/auth/totp');
  }
}

/** The password was right, and the account has two-factor sign-in on: a mail client, which cannot ask for a code, needs an app password. */
export class AppPasswordRequiredError extends Error {
  constructor() {
    super('this account signs in with a second factor: make an app password in the webmail and sign in with it');
  }
}

/** A user has as many app passwords as they may: one must be revoked before another is made. */
export class AppPasswordLimitError extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} app passwords: revoke one you no longer use first`);
  }
}

/** The user has no app password of that id (revoked already, or never theirs). */
export class AppPasswordNotFoundError extends Error {
  constructor(readonly id: number) {
    super(`no app password ${id}`);
  }
}

/** A mail client signed in to an account that must first change its password or set up two-factor sign-in, which only the webmail can do. */
export class AccountSetupRequiredError extends Error {
  constructor() {
    super('this account must be set up in the webmail first (a new password, or two-factor sign-in)');
  }
}
