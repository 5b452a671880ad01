import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiNotModifiedResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, ApiZodPath, ApiZodResponse, ifNoneMatchHits, ZodValidationPipe } from '@letterbox/http';
import { ChangeMailboxes, mailboxListSchema, MailboxQueries, mailboxViewSchema } from '@letterbox/mail';
import { mailboxBody, mailboxIdParams, unlockBody } from './mailbox-request.schemas';

type MailboxIdParams = z.infer<typeof mailboxIdParams>;

@ApiTags('mailboxes')
@ApiBearerAuth()
@Controller('v2/mailboxes')
export class MailboxesController {
  constructor(
    private readonly mailboxes: MailboxQueries,
    private readonly changes: ChangeMailboxes,
  ) {}

  /**
   * The user's mailboxes with total and unread counts (none shown for a locked one). Its ETag moves with
   * every change to them; `If-None-Match` with the current one is answered 304, from one row.
   */
  @Get()
  @ApiZodResponse(200, mailboxListSchema)
  @ApiNotModifiedResponse({ description: 'the ETag of If-None-Match is current: the list held is the list' })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'the ETag of the list held' })
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const etagOf = (version: string) => `"${user.userId}.${version}"`;
    const held = ifNoneMatch === undefined ? undefined : (version: string) => ifNoneMatchHits(ifNoneMatch, etagOf(version));
    const answer = await this.mailboxes.list(user.userId, held);
    // Always revalidated: the counts move with every new mail.
    void reply.header('etag', etagOf(answer.version)).header('cache-control', 'private, no-cache');
    if ('unchanged' in answer) {
      void reply.status(304);
      return;
    }
    return { items: answer.items };
  }

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
