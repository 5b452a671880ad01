import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { appPasswordListSchema, AppPasswords, createdAppPasswordSchema, newAppPasswordSchema } from '@letterbox/accounts';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, ApiZodPath, ApiZodResponse, integerParam, ZodValidationPipe } from '@letterbox/http';

const appPasswordParams = z.object({ id: integerParam(1, 2 ** 31 - 1) });

/**
 * The user's app passwords: with one, a mail client (SMTP submission, IMAP) signs in in place of the account's
 * password, the only way once two-factor sign-in is on. Each is shown once, when made; a new password revokes them all.
 */
@ApiTags('auth')
@ApiBearerAuth()
@Controller('v2/auth/app-passwords')
export class AppPasswordsController {
  constructor(private readonly appPasswords: AppPasswords) {}

  /** The user's app passwords, oldest first, with when each was last used: never their secrets. */
  @Get()
  @ApiZodResponse(200, appPasswordListSchema)
  async list(@CurrentUser() current: AuthenticatedUser) {
    return { items: await this.appPasswords.list(current) };
  }

  /** A new app password for the mail client `name`: the answer's `password` is shown only now. 409 past the limit (20). */
  @Post()
  @HttpCode(201)
  @ApiZodBody(newAppPasswordSchema)
  @ApiZodResponse(201, createdAppPasswordSchema)
  create(
    @CurrentUser() current: AuthenticatedUser,
    @Body(new ZodValidationPipe(newAppPasswordSchema, 'body')) body: z.infer<typeof newAppPasswordSchema>,
    @Req() request: FastifyRequest,
  ) {
    return this.appPasswords.create(current, body.name, request.ip);
  }

  /** Revokes it: mail clients signed in with it are refused from their next sign-in. 404 when the user has no such app password. */
  @Delete(':id')
  @HttpCode(204)
  @ApiZodPath(appPasswordParams)
  async revoke(
    @CurrentUser() current: AuthenticatedUser,
    @Param(new ZodValidationPipe(appPasswordParams, 'path')) params: z.infer<typeof appPasswordParams>,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.appPasswords.revoke(current, params.id, request.ip);
  }
}
