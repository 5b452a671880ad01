import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodPath, ApiZodQuery, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import { ThreadQueries, threadPageSchema, threadSchema } from '@letterbox/mail';
import { listFilterOf, threadIdParams, threadListQuery } from '../mails/mail-request.schemas';

@ApiTags('threads')
@ApiBearerAuth()
@Controller('v2/threads')
export class ThreadsController {
  constructor(private readonly threads: ThreadQueries) {}

  /** The mail list collapsed into conversations, newest first, with the mail list's filters. */
  @Get()
  @ApiZodQuery(threadListQuery)
  @ApiZodResponse(200, threadPageSchema, { serialize: true })
  page(@CurrentUser() user: AuthenticatedUser, @Query(new ZodValidationPipe(threadListQuery, 'query')) query: z.infer<typeof threadListQuery>) {
    return this.threads.page(user.userId, { filter: listFilterOf(query), limit: query.limit, cursor: query.cursor });
  }

  /** A conversation's messages, oldest first. */
  @Get(':id')
  @ApiZodResponse(200, threadSchema, { serialize: true })
  @ApiZodPath(threadIdParams)
  async read(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(threadIdParams, 'path')) params: z.infer<typeof threadIdParams>) {
    return { threadId: params.id, messages: await this.threads.messages(user.userId, params.id) };
  }
}
