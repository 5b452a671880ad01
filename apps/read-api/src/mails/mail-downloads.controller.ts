import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodPath, contentDisposition, parseByteRange, problemBody, sendProblem, showableInline, ZodValidationPipe } from '@letterbox/http';
import { MailContentReader, MailQueries } from '@letterbox/mail';
import { attachmentParams, mailIdParams } from './mail-request.schemas';

const validMailId = new ZodValidationPipe(mailIdParams, 'path');
const validAttachment = new ZodValidationPipe(attachmentParams, 'path');

/** What every download is answered with: a type, a name to save it under, and an hour in the browser's own cache. */
function download(reply: FastifyReply, file: { contentType: string; disposition: 'attachment' | 'inline'; filename: string }): FastifyReply {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.disposition, file.filename))
    .header('cache-control', 'private, max-age=3600');
}

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
    @Param(validMailId) params: z.infer<typeof mailIdParams>,
    @Headers('range') rangeHeader: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const mail = await this.mails.record(user.userId, params.id);
    const range = parseByteRange(rangeHeader, mail.size);
    download(reply.header('accept-ranges', 'bytes'), { contentType: 'message/rfc822', disposition: 'attachment', filename: `${mail.id}.eml` });
    if (range === 'unsatisfiable') {
      return sendProblem(reply, problemBody(416, `header.range: the message is ${mail.size} bytes long`), { 'content-range': `bytes */${mail.size}` });
    }
    if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end - 1}/${mail.size}`);
    return reply.header('content-length', range ? range.end - range.start : mail.size).send(this.content.openRaw(mail, range));
  }

  /** All the mail's files in one zip, streamed as each is decoded; 404 for a mail without any. */
  @Get('attachments.zip')
  @ApiZodPath(mailIdParams)
  async attachmentsZip(@CurrentUser() user: AuthenticatedUser, @Param(validMailId) params: z.infer<typeof mailIdParams>, @Res() reply: FastifyReply) {
    const mail = await this.mails.record(user.userId, params.id);
    const archive = this.content.openAttachmentsZip(mail);
    return download(reply, { contentType: 'application/zip', disposition: 'attachment', filename: archive.filename })
      .header('content-length', archive.size)
      .send(archive.stream);
  }

  /**
   * One attachment, decoded from its transfer encoding as it streams. Shown inline only when
   * asked and of a type that runs no script (showableInline), and always sandboxed: the
   * sender chose its type and bytes.
   */
  @Get('attachments/:partId')
  @ApiQuery({ name: 'disposition', required: false, enum: ['attachment', 'inline'] })
  @ApiZodPath(attachmentParams)
  async attachment(
    @CurrentUser() user: AuthenticatedUser,
    @Param(validAttachment) params: z.infer<typeof attachmentParams>,
    @Query('disposition') disposition: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const mail = await this.mails.record(user.userId, params.id);
    const { stream, attachment } = this.content.openAttachment(mail, params.partId);
    const shown = disposition === 'inline' && showableInline(attachment.contentType) ? 'inline' : 'attachment';
    return download(reply, { contentType: attachment.contentType, disposition: shown, filename: attachment.filename })
      .header('content-length', attachment.size)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', 'sandbox')
      .send(stream);
  }
}
