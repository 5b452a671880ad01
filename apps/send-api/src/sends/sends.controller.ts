import { Controller, Get, Headers, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodPath, ApiZodResponse, integerParam, ZodValidationPipe } from '@letterbox/http';
import { scheduledSendListSchema, SendMail, sendStatusSchema, submittedSendSchema, UserSends } from '@letterbox/sending';
import { BlobStore } from '@letterbox/storage';
import { SEND_API_CONFIG, type SendApiConfig } from '../send-api.config';
import { readSendForm } from './read-send-form';
import { idempotencyKeyHeader, sendRequestBody } from './send-request.schema';

const sendIdParams = z.object({ id: integerParam(1, Number.MAX_SAFE_INTEGER) });
const sentMailParams = z.object({ mailId: integerParam(1, Number.MAX_SAFE_INTEGER) });
const statusUrl = (id: number) => `/v2/mails/send/${id}`;

@ApiTags('send')
@ApiBearerAuth()
@Controller('v2/mails/send')
export class SendsController {
  private readonly validateBody = new ZodValidationPipe(sendRequestBody, 'body');
  private readonly validateHeaders = new ZodValidationPipe(z.object({ 'idempotency-key': idempotencyKeyHeader }), 'header');

  constructor(
    @Inject(SEND_API_CONFIG) private readonly config: SendApiConfig,
    private readonly blobs: BlobStore,
    private readonly sendMail: SendMail,
    private readonly sends: UserSends,
  ) {}

  /**
   * Records the send in one short transaction, queues its delivery and answers 202 at once:
   * the provider's latency and limits never reach this request. JSON, or multipart/form-data
   * with files in `attachments`. With `original` and `mode`, it replies to or forwards that mail.
   */
  @Post()
  @HttpCode(202)
  @ApiZodResponse(202, submittedSendSchema)
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody({ schema: z.toJSONSchema(sendRequestBody, { io: 'input', unrepresentable: 'any' }) as object })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'A retried request with the same key returns the first send.' })
  async send(
    @CurrentUser() user: AuthenticatedUser,
    @Headers('idempotency-key') rawIdempotencyKey: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const idempotencyKey = this.validateHeaders.transform({ 'idempotency-key': rawIdempotencyKey })['idempotency-key'];
    const form = await readSendForm(request, this.blobs, this.config.SEND_MAX_ATTACHMENT_BYTES);
    const body = this.validateBody.transform(form.fields) as z.infer<typeof sendRequestBody>;
    const send = await this.sendMail.send(user, { ...body, attachments: form.attachments }, idempotencyKey);
    reply.header('location', statusUrl(send.id));
    return { ...send, statusUrl: statusUrl(send.id) };
  }

  /** The send whose Sent copy is this mail, with what became of each recipient; 404 for any other mail. */
  @Get('for-mail/:mailId')
  @ApiZodResponse(200, sendStatusSchema)
  @ApiZodPath(sentMailParams)
  statusOfSentMail(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(sentMailParams, 'path')) params: z.infer<typeof sentMailParams>) {
    return this.sends.statusOfSentMail(user.userId, params.mailId);
  }

  /** The sends waiting for the time they were scheduled at (`sendAt`), soonest first; each is cancelled as an undo is. */
  @Get('scheduled')
  @ApiZodResponse(200, scheduledSendListSchema)
  async scheduled(@CurrentUser() user: AuthenticatedUser) {
    return { items: await this.sends.scheduled(user.userId) };
  }

  @Get(':id')
  @ApiZodResponse(200, sendStatusSchema)
  @ApiZodPath(sendIdParams)
  status(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(sendIdParams, 'path')) params: z.infer<typeof sendIdParams>) {
    return this.sends.status(user.userId, params.id);
  }

  /** Undo send: possible while no worker has started delivering it. */
  @Post(':id/cancel')
  @HttpCode(200)
  @ApiZodResponse(200, sendStatusSchema)
  @ApiZodPath(sendIdParams)
  cancel(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(sendIdParams, 'path')) params: z.infer<typeof sendIdParams>) {
    return this.sends.cancel(user.userId, params.id);
  }
}
