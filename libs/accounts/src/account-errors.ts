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
