import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@letterbox/auth';
import { metricsText } from '@letterbox/observability';

/** Prometheus's scrape of this process. */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  @Get()
  async metrics(@Res() reply: FastifyReply) {
    const { contentType, body } = await metricsText();
    await reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  }
}
