import { Body, Controller, Delete, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, ApiZodPath, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import { ChangeMailboxes, mailboxViewSchema } from '@letterbox/mail';
import { mailboxBody, mailboxIdParams, unlockBody } from './mailbox-request.schemas';

type MailboxIdParams = z.infer<typeof mailboxIdParams>;

@ApiTags('mailboxes')
@ApiBearerAuth()
@Controller('v2/mailboxes')
export class MailboxesController {
  /** The list itself is served beside Nest: mailbox-list.route.ts. */
  constructor(private readonly changes: ChangeMailboxes) {}

  /** A folder of the user's own; its name must be new among their mailboxes (409). */
  @Post()
  @ApiZodResponse(201, mailboxViewSchema)
  @ApiZodBody(mailboxBody)
  create(@CurrentUser() user: AuthenticatedUser, @Body(new ZodValidationPipe(mailboxBody, 'body')) body: z.infer<typeof mailboxBody>) {
    return this.changes.create(user.userId, body.name);
  }

  /** Renames a folder; system mailboxes keep their names (409). */
  @Patch(':id')
  @ApiZodResponse(200, mailboxViewSchema)
  @ApiZodBody(mailboxBody)
  @ApiZodPath(mailboxIdParams)
  rename(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(mailboxIdParams, 'path')) params: MailboxIdParams,
    @Body(new ZodValidationPipe(mailboxBody, 'body')) body: z.infer<typeof mailboxBody>,
  ) {
    return this.changes.rename(user.userId, params.id, body.name);
  }

  /** Deletes a folder, its mail moved to the trash in the same transaction; system mailboxes stay (409). */
  @Delete(':id')
  @ApiZodPath(mailboxIdParams)
  remove(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(mailboxIdParams, 'path')) params: MailboxIdParams) {
    return this.changes.remove(user.userId, params.id);
  }

  /** Its mail leaves lists and counts, and reading it answers 423, until it is unlocked. */
  @Post(':id/lock')
  @HttpCode(200)
  @ApiZodResponse(200, mailboxViewSchema)
  @ApiZodPath(mailboxIdParams)
  lock(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(mailboxIdParams, 'path')) params: MailboxIdParams) {
    return this.changes.lock(user.userId, params.id);
  }

  /** Unlocks with the user's password typed again; a wrong one is a 403. */
  @Post(':id/unlock')
  @HttpCode(200)
  @ApiZodResponse(200, mailboxViewSchema)
  @ApiZodBody(unlockBody)
  @ApiZodPath(mailboxIdParams)
  unlock(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(mailboxIdParams, 'path')) params: MailboxIdParams,
    @Body(new ZodValidationPipe(unlockBody, 'body')) body: z.infer<typeof unlockBody>,
  ) {
    return this.changes.unlock(user.userId, params.id, body.password);
  }
}
