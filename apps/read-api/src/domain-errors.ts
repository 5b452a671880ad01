import {
  AccountDisabledError,
  AppPasswordLimitError,
  AppPasswordNotFoundError,
  IdentityNotFoundError,
  TooManyWrongPasswordsError,
  TotpAlreadyOnError,
  TotpInvalidError,
  TotpNotStartedError,
  TotpRequiredError,
  UserGoneError,
  WrongCredentialsError,
} from '@letterbox/accounts';
import { PROBLEM_TYPES, type ErrorClassifier } from '@letterbox/http';
import {
  AddressTakenError,
  AliasNotFoundError,
  SuppressionNotFoundError,
  DkimKeyNotFoundError,
  DomainNotOwnedError,
  DomainTakenError,
  GroupLoopError,
  GroupNotFoundError,
  LastAdminError,
  NotAnAdminError,
  NotOfficeMembersError,
  UnknownDomainError,
  UserNotFoundError,
} from '@letterbox/admin';
import { DeviceTokenTakenError } from '@letterbox/push';
import { SieveScriptError } from '@letterbox/sieve';
import {
  AttachmentNotFoundError,
  BulkChangeNotFoundError,
  BulkChangeNotUndoableError,
  MailboxDeletedError,
  MailboxLockedError,
  MailboxNameTakenError,
  MailboxNotFoundError,
  MailNotFoundError,
  NoAttachmentsError,
  SearchQueryError,
  SystemMailboxError,
  ThreadNotFoundError,
  TooManyHeavyReadsError,
  WrongPasswordError,
} from '@letterbox/mail';

/** The domain's errors that are answers, not faults. */
export const classifyDomainError: ErrorClassifier = (error) => {
  if (error instanceof WrongCredentialsError || error instanceof UserGoneError) return { status: 401, detail: error.message };
  if (error instanceof TooManyHeavyReadsError) return { status: 429, detail: error.message, retryAfterSeconds: error.retryAfterSeconds };
  if (error instanceof TooManyWrongPasswordsError) return { status: 429, detail: error.message, retryAfterSeconds: error.retryAfterSeconds };
  if (error instanceof TotpRequiredError) return { status: 401, type: PROBLEM_TYPES.totpRequired, detail: error.message };
  // A sign-in's wrong code (the auth controller answers a setup's as a field of the body: that session stands).
  if (error instanceof TotpInvalidError) return { status: 401, type: PROBLEM_TYPES.totpInvalid, detail: error.message };
  if (error instanceof AccountDisabledError) return { status: 403, type: PROBLEM_TYPES.accountDisabled, detail: error.message };
  if (error instanceof TotpAlreadyOnError || error instanceof TotpNotStartedError) return { status: 409, detail: error.message };
  if (error instanceof AppPasswordLimitError) return { status: 409, detail: error.message };
  if (error instanceof AppPasswordNotFoundError) return { status: 404, detail: error.message };
  if (
    error instanceof MailNotFoundError ||
    error instanceof MailboxNotFoundError ||
    error instanceof AttachmentNotFoundError ||
    error instanceof NoAttachmentsError ||
    error instanceof ThreadNotFoundError ||
    error instanceof BulkChangeNotFoundError ||
    error instanceof UserNotFoundError ||
    error instanceof GroupNotFoundError ||
    error instanceof AliasNotFoundError ||
    error instanceof SuppressionNotFoundError ||
    error instanceof UnknownDomainError ||
    error instanceof DkimKeyNotFoundError ||
    error instanceof IdentityNotFoundError
  ) {
    return { status: 404, detail: error.message };
  }
  if (error instanceof SearchQueryError) return { status: 400, detail: error.message };
  if (error instanceof SieveScriptError) {
    return { status: 422, detail: `body: ${error.message}`, errors: [{ field: 'body', message: error.message }] };
  }
  if (
    error instanceof MailboxNameTakenError ||
    error instanceof SystemMailboxError ||
    error instanceof MailboxDeletedError ||
    error instanceof BulkChangeNotUndoableError ||
    error instanceof DeviceTokenTakenError
  )
    return { status: 409, detail: error.message };
  if (error instanceof AddressTakenError || error instanceof DomainTakenError || error instanceof LastAdminError || error instanceof GroupLoopError)
    return { status: 409, detail: error.message };
  if (error instanceof DomainNotOwnedError || error instanceof NotOfficeMembersError) return { status: 422, detail: error.message };
  if (error instanceof NotAnAdminError) return { status: 403, detail: error.message };
  // Not 401: the session is valid, and a client must not sign the user out over a mistyped password.
  if (error instanceof WrongPasswordError) return { status: 403, detail: error.message };
  if (error instanceof MailboxLockedError) return { status: 423, detail: `${error.message}; unlock it to read its mail` };
  return undefined;
};
