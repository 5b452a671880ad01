import { Body, Controller, ForbiddenException, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Authentication, WrongCurrentPasswordError } from '@letterbox/accounts';
import { CurrentUser, Public, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, ZodValidationPipe } from '@letterbox/http';

const loginBody = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(1024),
});

const passwordBody = z
  .object({
    currentPassword: z.string().min(1).max(1024),
    newPassword: z.string().min(8, 'must be at least 8 characters').max(1024),
  })
  .strict();

@ApiTags('auth')
@Controller('v2/auth')
export class AuthController {
  constructor(private readonly authentication: Authentication) {}

  /**
   * A token for the email and password. Wrong passwords are counted per account and per client address in
   * Redis, shared by every API process: past the limit, 429 with Retry-After, for known and unknown accounts alike.
   */
  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiZodBody(loginBody)
  login(@Body(new ZodValidationPipe(loginBody, 'body')) body: z.infer<typeof loginBody>, @Req() request: FastifyRequest) {
    return this.authentication.signIn(body.email, body.password, request.ip);
  }

  @Get('me')
  @ApiBearerAuth()
  me(@CurrentUser() current: AuthenticatedUser) {
    return this.authentication.profile(current.userId);
  }

  /** Signs out everywhere: every token of the user issued so far stops working, in every API process. */
  @Post('logout')
  @HttpCode(204)
  @ApiBearerAuth()
  async logout(@CurrentUser() current: AuthenticatedUser): Promise<void> {
    await this.authentication.signOut(current.userId);
  }

  /** A new password ends every earlier token; the answer carries a fresh one, so this client stays signed in. */
  @Post('password')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiZodBody(passwordBody)
  changePassword(
    @CurrentUser() current: AuthenticatedUser,
    @Body(new ZodValidationPipe(passwordBody, 'body')) body: z.infer<typeof passwordBody>,
    @Req() request: FastifyRequest,
  ) {
    return this.authentication.changePassword(current.userId, body.currentPassword, body.newPassword, request.ip).catch(asFieldError);
  }
}

/** Not 401: the session is valid, and a client must not sign the user out over a mistyped password. */
function asFieldError(error: unknown): never {
  if (error instanceof WrongCurrentPasswordError) {
    throw new ForbiddenException({ detail: `body.currentPassword: ${error.message}`, errors: [{ field: 'body.currentPassword', message: error.message }] });
  }
  throw error;
}
