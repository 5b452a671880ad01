import { Controller, Get, Param, Query } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodPath, ApiZodQuery, ZodValidationPipe } from '@letterbox/http';
import { ThreadQueries } from '@letterbox/mail';
import { listFilterOf, threadIdParams, threadListQuery } from '../mails/mail-request.schemas';
import { threadListResponse, threadResponse } from './thread-response.schemas';

@ApiTags('threads')
@ApiBearerAuth()
@Controller('v2/threads')
export class ThreadsController {
  constructor(private readonly threads: ThreadQueries) {}

  /** The mail list collapsed into conversations, newest first, with the mail list's filters. */
  @Get()
  @ApiZodQuery(threadListQuery)
  @RouteSchema({ response: { 200: threadListResponse } })
  @ApiOkResponse({ schema: threadListResponse as object })
  page(@CurrentUser() user: AuthenticatedUser, @Query(new ZodValidationPipe(threadListQuery, 'query')) query: z.infer<typeof threadListQuery>) {
    return this.threads.page(user.userId, { filter: listFilterOf(query), limit: query.limit, cursor: query.cursor });
  }

  /** A conversation's messages, oldest first. */
  @Get(':id')
  @RouteSchema({ response: { 200: threadResponse } })
  @ApiOkResponse({ schema: threadResponse as object })
  @ApiZodPath(threadIdParams)
  async read(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(threadIdParams, 'path')) params: z.infer<typeof threadIdParams>) {
    return { threadId: params.id, messages: await this.threads.messages(user.userId, params.id) };
  }
}
