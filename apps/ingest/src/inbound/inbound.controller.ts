import type { Readable } from 'node:stream';
import { Controller, HttpCode, Post, Query, Req, UnsupportedMediaTypeException, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiZodQuery, ZodValidationPipe } from '@letterbox/http';
import { EmptyMessageError, InboundIntake, MessageTooLargeError } from '@letterbox/ingest';
import { GatewayTokenGuard } from './gateway-token.guard';
import { inboundQuery, type InboundQuery } from './inbound.schemas';

@ApiTags('inbound')
@ApiBearerAuth()
@Controller('v2/inbound')
@UseGuards(GatewayTokenGuard)
export class InboundController {
  constructor(private readonly intake: InboundIntake) {}

  /**
   * Accepts one raw message for Letterbox users: written to storage and queued before the
   * 202, stored in the recipients' inboxes moments later by the ingest worker.
   */
  @Post()
  @HttpCode(202)
  @ApiConsumes('message/rfc822')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiZodQuery(inboundQuery)
  async receive(@Query(new ZodValidationPipe(inboundQuery, 'query')) query: InboundQuery, @Req() request: FastifyRequest) {
    const contentType = request.headers['content-type']?.split(';')[0].trim().toLowerCase();
    if (contentType !== 'message/rfc822') {
      throw new UnsupportedMediaTypeException(`header.content-type: must be message/rfc822, got ${contentType ?? 'none'}`);
    }
    const declaredLength = Number(request.headers['content-length'] ?? 0);
    if (declaredLength > this.intake.maxMessageBytes) throw new MessageTooLargeError(this.intake.maxMessageBytes);
    const content = request.body as Readable | undefined;
    if (!content) throw new EmptyMessageError();
    return this.intake.accept({ content, envelopeRecipients: query.to });
  }
}
