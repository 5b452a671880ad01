import { Body, Controller, ForbiddenException, Get, HttpCode, Inject, Post, Req, UnauthorizedException } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CachedUserSessions, changePassword } from '@letterbox/accounts';
import { AccessTokens, CurrentUser, FailedAttemptLimiter, hashPassword, Public, verifyPassword, type AuthenticatedUser } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { ApiZodBody, RetryLaterException, ZodValidationPipe } from '@letterbox/http';
import { DATABASE } from '@letterbox/nest-infrastructure';

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

/** Verified against when no user has the email, so a wrong address takes as long as a wrong password. */
const decoyHash = hashPassword('letterbox-decoy-password');

interface SignedInUser {
  id: number;
  officeId: number;
  email: string;
  displayName: string;
  tokenVersion: number;
}

@ApiTags('auth')
@Controller('v2/auth')
export class AuthController {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly tokens: AccessTokens,
    private readonly attempts: FailedAttemptLimiter,
    private readonly sessions: CachedUserSessions,
  ) {}

  /**
   * A token for the email and password. Wrong passwords are counted per account and per client address in
   * Redis, shared by every API process: past the limit, 429 with Retry-After, for known and unknown accounts alike.
   */
  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiZodBody(loginBody)
  async login(@Body(new ZodValidationPipe(loginBody, 'body')) body: z.infer<typeof loginBody>, @Req() request: FastifyRequest) {
    const email = body.email.toLowerCase();
    const wait = await this.attempts.secondsToWait(email, request.ip);
    if (wait > 0) throw new RetryLaterException(429, `too many wrong passwords; try again in ${wait} s`, wait);
    const user = await this.db.prisma.user.findUnique({ where: { email } });
    const valid = await verifyPassword(user?.passwordHash ?? (await decoyHash), body.password);
    if (!user || !valid) {
      await this.attempts.recordFailure(email, request.ip);
      throw new UnauthorizedException('the email or password is wrong');
    }
    await this.attempts.recordSuccess(email);
    return this.signedIn(user);
  }

  @Get('me')
  @ApiBearerAuth()
  async me(@CurrentUser() current: AuthenticatedUser) {
    const user = await this.db.prisma.user.findUnique({ where: { id: current.userId } });
    if (!user) throw new UnauthorizedException('the signed-in user no longer exists');
    return { id: user.id, officeId: user.officeId, email: user.email, displayName: user.displayName };
  }

  /** Signs out everywhere: every token of the user issued so far stops working, in every API process. */
  @Post('logout')
  @HttpCode(204)
  @ApiBearerAuth()
  async logout(@CurrentUser() current: AuthenticatedUser): Promise<void> {
    await this.sessions.revoke(current.userId);
  }

  /** A new password ends every earlier token; the answer carries a fresh one, so this client stays signed in. */
  @Post('password')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiZodBody(passwordBody)
  async changePassword(@CurrentUser() current: AuthenticatedUser, @Body(new ZodValidationPipe(passwordBody, 'body')) body: z.infer<typeof passwordBody>, @Req() request: FastifyRequest) {
    const user = await this.db.prisma.user.findUnique({ where: { id: current.userId } });
    if (!user) throw new UnauthorizedException('the signed-in user no longer exists');
    const wait = await this.attempts.secondsToWait(user.email, request.ip);
    if (wait > 0) throw new RetryLaterException(429, `too many wrong passwords; try again in ${wait} s`, wait);
    if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
      await this.attempts.recordFailure(user.email, request.ip);
      // Not 401: the session is valid, and a client must not sign the user out over a mistyped password.
      throw new ForbiddenException({ detail: 'body.currentPassword: the password is wrong', errors: [{ field: 'body.currentPassword', message: 'the password is wrong' }] });
    }
    const { tokenVersion } = await changePassword(this.db, this.sessions, user.id, body.newPassword);
    return this.signedIn({ ...user, tokenVersion });
  }

  private signedIn(user: SignedInUser) {
    const token = this.tokens.issue({ userId: user.id, officeId: user.officeId, tokenVersion: user.tokenVersion });
    return {
      accessToken: token.accessToken,
      tokenType: 'Bearer',
      expiresAt: token.expiresAt.toISOString(),
      user: { id: user.id, officeId: user.officeId, email: user.email, displayName: user.displayName },
    };
  }
}
