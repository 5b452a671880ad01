import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { contentDisposition, parseByteRange, problemBody } from '@letterbox/http';
import { MailContentReader, MailQueries } from '@letterbox/mail';
import { attachmentParams, mailIdParams } from './mail-request.schemas';
import { ApiZodPath, ZodValidationPipe } from '@letterbox/http';

/** Streams stored bytes: nothing here holds a whole attachment or message in memory. */
@ApiTags('mails')
@ApiBearerAuth()
@Controller('v2/mails/:id')
export class MailDownloadsController {
  constructor(
    private readonly mails: MailQueries,
    private readonly content: MailContentReader,
  ) {}

  /** The EML exactly as stored, as message/rfc822, with single-range support. */
  @Get('raw')
  @ApiZodPath(mailIdParams)
  async raw(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(mailIdParams, 'path')) params: z.infer<typeof mailIdParams>,
    @Headers('range') rangeHeader: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const mail = await this.mails.record(user.userId, params.id);
    const range = parseByteRange(rangeHeader, mail.size);
    reply
      .header('accept-ranges', 'bytes')
      .header('content-type', 'message/rfc822')
      .header('content-disposition', contentDisposition('attachment', `${mail.id}.eml`))
      .header('cache-control', 'private, max-age=3600');
    if (range === 'unsatisfiable') {
      return reply
        .status(416)
        .header('content-range', `bytes */${mail.size}`)
        .header('content-type', 'application/problem+json')
        .send(problemBody(416, `header.range: the message is ${mail.size} bytes long`));
    }
    if (range) {
      reply.status(206).header('content-range', `bytes ${range.start}-${range.end - 1}/${mail.size}`);
    }
    const length = range ? range.end - range.start : mail.size;
    return reply.header('content-length', length).send(this.content.openRaw(mail, range));
  }

  /** One attachment, decoded from its transfer encoding as it streams. */
  @Get('attachments/:partId')
  @ApiQuery({ name: 'disposition', required: false, enum: ['attachment', 'inline'] })
  @ApiZodPath(attachmentParams)
  async attachment(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(attachmentParams, 'path')) params: z.infer<typeof attachmentParams>,
    @Query('disposition') disposition: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const mail = await this.mails.record(user.userId, params.id);
    const { stream, attachment } = this.content.openAttachment(mail, params.partId);
    return reply
      .header('content-type', attachment.contentType)
      .header('content-length', attachment.size)
      .header('content-disposition', contentDisposition(disposition === 'inline' ? 'inline' : 'attachment', attachment.filename))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=3600')
      .send(stream);
  }
}
