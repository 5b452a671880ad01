import { Body, Controller, Delete, ForbiddenException, Get, HttpCode, Patch, Post, Req, UnprocessableEntityException } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  Authentication,
  profileChanges,
  ProfileSettings,
  TotpInvalidError,
  TwoFactorSetup,
  WrongCurrentPasswordError,
  type ProfileChanges,
} from '@letterbox/accounts';
import { AllowedDuringSetup, CurrentUser, EVERY_SETUP, Public, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, PROBLEM_TYPES, ZodValidationPipe } from '@letterbox/http';

const loginBody = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(1024),
  totp: z.string().min(1).max(64).describe('the authenticator app’s current code, or a recovery code; needed once two-factor sign-in is on').optional(),
});

const passwordBody = z
  .object({
    currentPassword: z.string().min(1).max(1024),
    newPassword: z.string().min(8, 'must be at least 8 characters').max(1024),
  })
  .strict();

const totpConfirmBody = z.object({ code: z.string().regex(/^\d{6}$/, 'must be the six digits the authenticator app shows') }).strict();

const totpDisableBody = z.object({ password: z.string().min(1).max(1024) }).strict();

@ApiTags('auth')
@Controller('v2/auth')
export class AuthController {
  constructor(
    private readonly authentication: Authentication,
    private readonly twoFactor: TwoFactorSetup,
    private readonly profileSettings: ProfileSettings,
  ) {}

  /**
   * A token for the email and password (and, with two-factor sign-in on, `totp`: without it 401 of type totp-required,
   * a wrong one 401 of type totp-invalid). Wrong passwords and codes are counted per account and per client address in
   * Redis, shared by every API process: past the limit, 429 with Retry-After. Past the account's limit the right
   * password still signs in with a right code (TOTP on) or from an address that signed in to the account before.
   * A disabled account: 403 of type account-disabled, once the password was right. The answer says whether the user
   * must change their password or set up TOTP first (every other route answers 403 until then).
   */
  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiZodBody(loginBody)
  login(@Body(new ZodValidationPipe(loginBody, 'body')) body: z.infer<typeof loginBody>, @Req() request: FastifyRequest) {
    return this.authentication.signIn(body, request.ip);
  }

  /** Who the token belongs to, what they must do first, their addresses (primary first) and storage used of their quota. */
  @Get('me')
  @ApiBearerAuth()
  @AllowedDuringSetup(...EVERY_SETUP)
  me(@CurrentUser() current: AuthenticatedUser) {
    return this.authentication.profile(current.userId);
  }

  /** Changes the user's own settings (today their language, `locale`); answers the profile as GET /v2/auth/me does. */
  @Patch('me')
  @ApiBearerAuth()
  @AllowedDuringSetup(...EVERY_SETUP)
  @ApiZodBody(profileChanges)
  changeProfile(@CurrentUser() current: AuthenticatedUser, @Body(new ZodValidationPipe(profileChanges, 'body')) body: ProfileChanges) {
    return this.profileSettings.change(current.userId, body);
  }

  /** Signs this session out: its tokens stop working in every API process, and its event streams end; other sessions stand. */
  @Post('logout')
  @HttpCode(204)
  @ApiBearerAuth()
  @AllowedDuringSetup(...EVERY_SETUP)
  async logout(@CurrentUser() current: AuthenticatedUser, @Req() request: FastifyRequest): Promise<void> {
    await this.authentication.signOut(current, request.ip);
  }

  /** Signs out everywhere: every token of the user issued so far stops working, in every API process. */
  @Post('logout/everywhere')
  @HttpCode(204)
  @ApiBearerAuth()
  @AllowedDuringSetup(...EVERY_SETUP)
  async logoutEverywhere(@CurrentUser() current: AuthenticatedUser, @Req() request: FastifyRequest): Promise<void> {
    await this.authentication.signOutEverywhere(current, request.ip);
  }

  /** A new password ends every earlier token (every other session); the answer carries a fresh one, so this client stays signed in. */
  @Post('password')
  @HttpCode(200)
  @ApiBearerAuth()
  @AllowedDuringSetup(...EVERY_SETUP)
  @ApiZodBody(passwordBody)
  changePassword(
    @CurrentUser() current: AuthenticatedUser,
    @Body(new ZodValidationPipe(passwordBody, 'body')) body: z.infer<typeof passwordBody>,
    @Req() request: FastifyRequest,
  ) {
    return this.authentication.changePassword(current, body.currentPassword, body.newPassword, request.ip).catch(asFieldError('body.currentPassword'));
  }

  /** A new TOTP secret and its otpauth:// URL (for a QR code), pending until a code of it is confirmed; 409 when TOTP is on. */
  @Post('totp')
  @HttpCode(200)
  @ApiBearerAuth()
  @AllowedDuringSetup('totp-setup')
  startTotp(@CurrentUser() current: AuthenticatedUser) {
    return this.twoFactor.start(current);
  }

  /** Turns TOTP on with a code of the pending secret; answers ten recovery codes, shown only now. A wrong code: 422 of type totp-invalid. */
  @Post('totp/confirm')
  @HttpCode(200)
  @ApiBearerAuth()
  @AllowedDuringSetup('totp-setup')
  @ApiZodBody(totpConfirmBody)
  confirmTotp(
    @CurrentUser() current: AuthenticatedUser,
    @Body(new ZodValidationPipe(totpConfirmBody, 'body')) body: z.infer<typeof totpConfirmBody>,
    @Req() request: FastifyRequest,
  ) {
    return this.twoFactor.confirm(current, body.code, request.ip).catch(asWrongCode);
  }

  /** Turns TOTP off, with the password typed again (403 when wrong); the recovery codes go too. */
  @Delete('totp')
  @HttpCode(204)
  @ApiBearerAuth()
  @ApiZodBody(totpDisableBody)
  async disableTotp(
    @CurrentUser() current: AuthenticatedUser,
    @Body(new ZodValidationPipe(totpDisableBody, 'body')) body: z.infer<typeof totpDisableBody>,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.twoFactor.disable(current, body.password, request.ip).catch(asFieldError('body.password'));
  }
}

/** Not 401: the session is valid, and a client must not sign the user out over a mistyped code. */
function asWrongCode(error: unknown): never {
  if (error instanceof TotpInvalidError) {
    throw new UnprocessableEntityException({
      type: PROBLEM_TYPES.totpInvalid,
      detail: `body.code: ${error.message}`,
      errors: [{ field: 'body.code', message: error.message }],
    });
  }
  throw error;
}

/** Not 401: the session is valid, and a client must not sign the user out over a mistyped password. */
function asFieldError(field: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof WrongCurrentPasswordError) {
      throw new ForbiddenException({ detail: `${field}: ${error.message}`, errors: [{ field, message: error.message }] });
    }
    throw error;
  };
}
