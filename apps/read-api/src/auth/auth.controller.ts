import { Body, Controller, Get, HttpCode, Inject, Post, UnauthorizedException } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { AccessTokens, CurrentUser, hashPassword, Public, verifyPassword, type AuthenticatedUser } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { ApiZodBody, ZodValidationPipe } from '@letterbox/http';
import { DATABASE } from '@letterbox/nest-infrastructure';

const loginBody = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(1024),
});

/** Verified against when no user has the email, so a wrong address takes as long as a wrong password. */
const decoyHash = hashPassword('letterbox-decoy-password');

@ApiTags('auth')
@Controller('v2/auth')
export class AuthController {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly tokens: AccessTokens,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiZodBody(loginBody)
  async login(@Body(new ZodValidationPipe(loginBody, 'body')) body: z.infer<typeof loginBody>) {
    const user = await this.db.prisma.user.findUnique({ where: { email: body.email.toLowerCase() } });
    const valid = await verifyPassword(user?.passwordHash ?? (await decoyHash), body.password);
    if (!user || !valid) throw new UnauthorizedException('the email or password is wrong');
    const token = this.tokens.issue(user.id, user.officeId);
    return {
      accessToken: token.accessToken,
      tokenType: 'Bearer',
      expiresAt: token.expiresAt.toISOString(),
      user: { id: user.id, officeId: user.officeId, email: user.email, displayName: user.displayName },
    };
  }

  @Get('me')
  @ApiBearerAuth()
  async me(@CurrentUser() current: AuthenticatedUser) {
    const user = await this.db.prisma.user.findUnique({ where: { id: current.userId } });
    if (!user) throw new UnauthorizedException('the signed-in user no longer exists');
    return { id: user.id, officeId: user.officeId, email: user.email, displayName: user.displayName };
  }
}
