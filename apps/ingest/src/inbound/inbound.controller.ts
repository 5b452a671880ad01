import type { Readable } from 'node:stream';
import { Controller, HttpCode, HttpException, HttpStatus, Post, Query, Req, Res, UnsupportedMediaTypeException, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiZodQuery, ZodValidationPipe } from '@letterbox/http';
import { EmptyMessageError, InboundIntake, MessageTooLargeError, refusalReason } from '@letterbox/ingest';
import { inboundTotal } from '@letterbox/observability';
import { GatewayTokenGuard } from './gateway-token.guard';
import { inboundQuery, type InboundQuery } from './inbound.schemas';
import { RequestsInProgress } from './requests-in-progress';

@ApiTags('inbound')
@ApiBearerAuth()
@Controller('v2/inbound')
@UseGuards(GatewayTokenGuard)
export class InboundController {
  constructor(
    private readonly intake: InboundIntake,
    private readonly inProgress: RequestsInProgress,
  ) {}

  /**
   * Accepts one raw message for Letterbox users: checked (SPF against `ip`, `helo` and
   * `sender` when given, DKIM, DMARC, ARC), written to storage and queued before the
   * 202, stored in the recipients' inboxes (or Spam) moments later by the ingest worker.
   * A gateway named by INGEST_TRUSTED_AUTHSERV_ID may send its own results instead, as an
   * `Authentication-Results` request header with its authserv-id. A DMARC p=reject failure
   * is refused with 422. A gateway with too many messages in progress at once gets a 429
   * with Retry-After.
   */
  @Post()
  @HttpCode(202)
  @ApiConsumes('message/rfc822')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiZodQuery(inboundQuery)
  @ApiHeader({
    name: 'authentication-results',
    required: false,
    description: "The gateway's own checks (RFC 8601), taken instead of checking again when its authserv-id is INGEST_TRUSTED_AUTHSERV_ID",
  })
  async receive(
    @Query(new ZodValidationPipe(inboundQuery, 'query')) query: InboundQuery,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const contentType = request.headers['content-type']?.split(';')[0].trim().toLowerCase();
    if (contentType !== 'message/rfc822') {
      throw new UnsupportedMediaTypeException(`header.content-type: must be message/rfc822, got ${contentType ?? 'none'}`);
    }
    const declaredLength = Number(request.headers['content-length'] ?? 0);
    if (declaredLength > this.intake.maxMessageBytes) throw new MessageTooLargeError(this.intake.maxMessageBytes);
    const content = request.body as Readable | undefined;
    if (!content) throw new EmptyMessageError();
    const leave = this.inProgress.enter(request.ip);
    if (!leave) {
      inboundTotal.inc({ channel: 'http', outcome: 'refused', reason: 'rate-limited' });
      content.resume();
      void reply.header('retry-after', '1');
      throw new HttpException(
        `this address has ${this.inProgress.maxPerClient} messages in progress, the most allowed; retry shortly`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    try {
      const origin = {
        channel: 'http',
        ip: query.ip,
        helo: query.helo,
        sender: query.sender,
        trustedResults: headerOf(request, 'authentication-results'),
      } as const;
      const accepted = await this.intake.accept({ content, envelopeRecipients: query.to, origin });
      inboundTotal.inc({ channel: 'http', outcome: 'accepted', reason: 'accepted' });
      return accepted;
    } catch (error) {
      inboundTotal.inc({ channel: 'http', outcome: 'refused', reason: refusalReason(error) });
      throw error;
    } finally {
      leave();
    }
  }
}

/** A request header's value, the first when it was sent more than once. */
function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
