import { ForbiddenException, SetMetadata } from '@nestjs/common';
import { PROBLEM_TYPES } from '@letterbox/http';
import type { AuthenticatedUser } from './authenticated-user';
import type { AccountSetup } from './user-sessions';

export const ALLOWED_DURING_SETUP = 'letterbox:allowed-during-setup';

/** Marks a route a user may call while their account needs the setups given (who they are, signing out, doing the setup). */
export const AllowedDuringSetup = (...setups: AccountSetup[]) => SetMetadata(ALLOWED_DURING_SETUP, setups);

/** Every setup: the routes that tell the user what is needed, or let them leave. */
export const EVERY_SETUP: AccountSetup[] = ['password-change', 'totp-setup'];

const REFUSALS: Record<AccountSetup, { type: string; detail: string }> = {
  'password-change': {
    type: PROBLEM_TYPES.passwordChangeRequired,
    detail: 'choose a new password first (POST /v2/auth/password): an administrator set this one',
  },
  'totp-setup': {
    type: PROBLEM_TYPES.totpSetupRequired,
    detail: 'set up two-factor sign-in first (POST /v2/auth/totp, then /v2/auth/totp/confirm): the office requires it',
  },
};

/** 403 with the setup's problem type unless the route allows it. */
export function refuseDuringSetup(user: AuthenticatedUser, allowed: AccountSetup[] = []): void {
  if (user.setupRequired && !allowed.includes(user.setupRequired)) throw new ForbiddenException(REFUSALS[user.setupRequired]);
}
