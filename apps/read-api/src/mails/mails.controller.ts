import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, ApiZodPath, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import {
  BulkChanges,
  bulkChangeSchema,
  ChangeMail,
  ChangeMailsInBulk,
  ReportSpam,
  mailDetailSchema,
  MailDetailQuery,
  StartBulkChange,
  UndoBulkChange,
  type BulkChangeView,
  type MailDetail,
  type MailSelection,
} from '@letterbox/mail';
import { bulkChangeBody, bulkChangeParams, mailIdParams, mailPatchBody, spamReportBody } from './mail-request.schemas';

@ApiTags('mails')
@ApiBearerAuth()
@Controller('v2/mails')
export class MailsController {
  /** The list itself is served beside Nest: mail-list.route.ts. */
  constructor(
    private readonly detail: MailDetailQuery,
    private readonly changeMail: ChangeMail,
    private readonly reportSpamOf: ReportSpam,
    private readonly changeInBulk: ChangeMailsInBulk,
    private readonly startBulkChange: StartBulkChange,
    private readonly bulkChanges: BulkChanges,
    private readonly undoBulkChange: UndoBulkChange,
  ) {}

  /** Headers, text, sanitized HTML and attachment metadata; attachment bytes are not read. */
  @Get(':id')
  @ApiZodResponse(200, mailDetailSchema, { serialize: true })
  @ApiZodPath(mailIdParams)
  read(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(mailIdParams, 'path')) params: z.infer<typeof mailIdParams>): Promise<MailDetail> {
    return this.detail.read(user.userId, params.id);
  }

  @Patch(':id')
  @ApiZodBody(mailPatchBody)
  @ApiZodPath(mailIdParams)
  change(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(mailIdParams, 'path')) params: z.infer<typeof mailIdParams>,
    @Body(new ZodValidationPipe(mailPatchBody, 'body')) body: z.infer<typeof mailPatchBody>,
  ) {
    return this.changeMail.change(user.userId, params.id, body);
  }

  /**
   * Changes many mails: listed by id (up to 1,000) or whole conversations at once, in one
   * statement (200, with how many changed; mail already as asked is not counted); every
   * mail a filter matches in slices by a job (202, with the change to follow at Location).
   */
  @Post('bulk')
  @HttpCode(200)
  @ApiZodBody(bulkChangeBody)
  @ApiZodResponse(202, bulkChangeSchema)
  async bulk(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodValidationPipe(bulkChangeBody, 'body')) body: z.infer<typeof bulkChangeBody>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ updated: number; deleted: number } | BulkChangeView> {
    const { ids, threadIds, filter, delete: remove, ...changes } = body;
    const action = remove ? { delete: true as const } : { changes };
    if (filter) {
      const change = await this.startBulkChange.start(user.userId, filter, action);
      reply.status(202).header('location', bulkChangeLocation(change.id));
      return change;
    }
    const outcome = await this.changeInBulk.apply(user.userId, selectionOf({ ids, threadIds }), action);
    return { updated: outcome.updated.length, deleted: outcome.deleted.length };
  }

  /** How far a change over a filter is; another user's is not found. */
  @Get('bulk/:id')
  @ApiZodPath(bulkChangeParams)
  @ApiZodResponse(200, bulkChangeSchema)
  bulkChange(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(bulkChangeParams, 'path')) params: z.infer<typeof bulkChangeParams>,
  ): Promise<BulkChangeView> {
    return this.bulkChanges.view(user.userId, params.id);
  }

  /**
   * Takes back a finished change of one flag ("Mark all as read"): a new change in slices over the mails it
   * changed (202, followed at Location); 409 while it runs, or for a move or a delete.
   */
  @Post('bulk/:id/undo')
  @HttpCode(202)
  @ApiZodPath(bulkChangeParams)
  @ApiZodResponse(202, bulkChangeSchema)
  async undoBulk(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(bulkChangeParams, 'path')) params: z.infer<typeof bulkChangeParams>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BulkChangeView> {
    const undo = await this.undoBulkChange.undo(user.userId, params.id);
    reply.header('location', bulkChangeLocation(undo.id));
    return undo;
  }

  /** "Report spam" for listed mails or whole conversations: moves them to Spam and teaches the spam filter from each that moved. */
  @Post('spam')
  @HttpCode(200)
  @ApiZodBody(spamReportBody)
  reportManySpam(@CurrentUser() user: AuthenticatedUser, @Body(new ZodValidationPipe(spamReportBody, 'body')) body: z.infer<typeof spamReportBody>) {
    return this.reportSpamOf.reportMany(user.userId, selectionOf(body), 'spam');
  }

  /** "Not spam" for listed mails or whole conversations: moves them to the inbox and teaches the spam filter from each that moved. */
  @Post('not-spam')
  @HttpCode(200)
  @ApiZodBody(spamReportBody)
  reportManyNotSpam(@CurrentUser() user: AuthenticatedUser, @Body(new ZodValidationPipe(spamReportBody, 'body')) body: z.infer<typeof spamReportBody>) {
    return this.reportSpamOf.reportMany(user.userId, selectionOf(body), 'ham');
  }

  /** "Report spam": moves the mail to Spam, and teaches the spam filter that mail like it is spam. */
  @Post(':id/spam')
  @HttpCode(200)
  @ApiZodPath(mailIdParams)
  reportSpam(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(mailIdParams, 'path')) params: z.infer<typeof mailIdParams>) {
    return this.reportSpamOf.report(user.userId, params.id, 'spam');
  }

  /** "Not spam": moves the mail to the inbox, and teaches the spam filter that mail like it is not spam. */
  @Post(':id/not-spam')
  @HttpCode(200)
  @ApiZodPath(mailIdParams)
  reportNotSpam(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(mailIdParams, 'path')) params: z.infer<typeof mailIdParams>) {
    return this.reportSpamOf.report(user.userId, params.id, 'ham');
  }

  /** Moves the mail to the trash; a mail already in the trash is deleted. */
  @Delete(':id')
  @ApiZodPath(mailIdParams)
  remove(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(mailIdParams, 'path')) params: z.infer<typeof mailIdParams>) {
    return this.changeMail.delete(user.userId, params.id);
  }
}

/** Listed mails, or whole conversations: the bodies' `ids` or `threadIds`, exactly one of which their schemas let through. */
function selectionOf(body: { ids?: number[]; threadIds?: number[] }): MailSelection {
  return body.ids ? { ids: body.ids } : { threadIds: body.threadIds ?? [] };
}

/** Where a change over a filter is followed (GET /v2/mails/bulk/:id). */
function bulkChangeLocation(changeId: number): string {
  return `/v2/mails/bulk/${changeId}`;
}
