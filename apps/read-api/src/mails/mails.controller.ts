import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { bulkChangeEvents, mailChangeEvent, type UserMailChanges } from '@letterbox/events';
import { ApiZodBody, ApiZodPath, ApiZodQuery, ZodValidationPipe } from '@letterbox/http';
import { BulkMailChanges, MailContentReader, MailListQuery, MailQueries, MailUpdates, type MailSelection, type MailSummary } from '@letterbox/mail';
import { MailEventAnnouncer } from '../events/mail-event-announcer';
import { bulkChangeBody, listFilterOf, mailIdParams, mailListQuery, mailPatchBody, type MailListQueryParams } from './mail-request.schemas';
import { mailDetailResponse, mailListResponse } from './mail-response.schemas';

export const attachmentPath = (mailId: number, partId: string) => `/v2/mails/${mailId}/attachments/${partId}`;

@ApiTags('mails')
@ApiBearerAuth()
@Controller('v2/mails')
export class MailsController {
  constructor(
    private readonly list: MailListQuery,
    private readonly mails: MailQueries,
    private readonly content: MailContentReader,
    private readonly updates: MailUpdates,
    private readonly bulkChanges: BulkMailChanges,
    private readonly announcer: MailEventAnnouncer,
  ) {}

  @Get()
  @ApiZodQuery(mailListQuery)
  @RouteSchema({ response: { 200: mailListResponse } })
  @ApiOkResponse({ schema: mailListResponse as object })
  async page(@CurrentUser() user: AuthenticatedUser, @Query(new ZodValidationPipe(mailListQuery, 'query')) query: MailListQueryParams) {
    const page = await this.list.page(user.userId, {
      filter: listFilterOf(query),
      order: query.sort === 'receivedAt' ? 'asc' : 'desc',
      limit: query.limit,
      cursor: query.cursor,
    });
    await this.expand(user.userId, page.items, query.with ?? []);
    return page;
  }

  /** Headers, text, sanitized HTML and attachment metadata; attachment bytes are not read. */
  @Get(':id')
  @RouteSchema({ response: { 200: mailDetailResponse } })
  @ApiOkResponse({ schema: mailDetailResponse as object })
  @ApiZodPath(mailIdParams)
  async read(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(mailIdParams, 'path')) params: z.infer<typeof mailIdParams>) {
    const mail = await this.mails.record(user.userId, params.id);
    const content = await this.content.read(mail, (partId) => attachmentPath(mail.id, partId));
    const { storageKey: _storageKey, layout: _layout, mailboxLocked: _locked, attachments, ...summary } = mail;
    return {
      ...summary,
      ...content,
      attachments: attachments.map(({ partId, filename, contentType, disposition, contentId, size }) => ({
        partId,
        filename,
        contentType,
        disposition,
        contentId,
        size,
        url: attachmentPath(mail.id, partId),
      })),
    };
  }

  @Patch(':id')
  @ApiZodBody(mailPatchBody)
  @ApiZodPath(mailIdParams)
  async change(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(mailIdParams, 'path')) params: z.infer<typeof mailIdParams>,
    @Body(new ZodValidationPipe(mailPatchBody, 'body')) body: z.infer<typeof mailPatchBody>,
  ) {
    const state = await this.updates.change(user.userId, params.id, body);
    await this.announcer.announce(user.userId, mailChangeEvent(state, Object.keys(body) as Array<keyof UserMailChanges>));
    return state;
  }

  /**
   * Changes many mails in one statement: listed by id (up to 1,000), whole conversations,
   * or every mail a filter matches. Mail already as asked is not counted.
   */
  @Post('bulk')
  @HttpCode(200)
  @ApiZodBody(bulkChangeBody)
  async bulk(@CurrentUser() user: AuthenticatedUser, @Body(new ZodValidationPipe(bulkChangeBody, 'body')) body: z.infer<typeof bulkChangeBody>) {
    const { ids, threadIds, filter, delete: remove, ...changes } = body;
    const selection: MailSelection = ids ? { ids } : threadIds ? { threadIds } : { filter: filter ?? {} };
    const outcome = await this.bulkChanges.apply(user.userId, selection, remove ? { delete: true } : { changes });
    await this.announcer.announceAll(user.userId, bulkChangeEvents(outcome.updated, outcome.deleted, outcome.changes));
    return { updated: outcome.updated.length, deleted: outcome.deleted.length };
  }

  /** Moves the mail to the trash; a mail already in the trash is deleted. */
  @Delete(':id')
  @ApiZodPath(mailIdParams)
  async remove(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(mailIdParams, 'path')) params: z.infer<typeof mailIdParams>) {
    const state = await this.updates.delete(user.userId, params.id);
    await this.announcer.announce(user.userId, mailChangeEvent(state, ['mailboxId']));
    return state;
  }

  private async expand(userId: number, items: MailSummary[], expansions: string[]): Promise<void> {
    if (items.length === 0 || expansions.length === 0) return;
    const ids = items.map((item) => item.id);
    const [attachments, receipts] = await Promise.all([
      expansions.includes('attachments') ? this.mails.attachmentsOf(userId, ids) : undefined,
      expansions.includes('receipt_confirm') ? this.mails.receiptsOf(userId, ids) : undefined,
    ]);
    for (const item of items) {
      if (attachments) item.attachments = attachments.get(item.id) ?? [];
      if (receipts) item.receiptConfirm = receipts.get(item.id) ?? [];
    }
  }
}
