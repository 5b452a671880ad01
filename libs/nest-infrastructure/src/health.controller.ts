import { Controller, Get, Inject, Logger, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { readiness, type DependencyCheck } from '@letterbox/observability';
import { DATABASE } from './database-token';
import { READINESS_CHECKS } from './readiness-checks';

/**
 * What load balancers and Kubernetes probes ask: /health/live (the process answers: restart it if not),
 * /health/ready (PostgreSQL, Redis and storage answer: send it traffic). /health is the older summary.
 */
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('health');

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(READINESS_CHECKS) private readonly checks: Record<string, DependencyCheck>,
  ) {}

  @Get()
  async check() {
    try {
      await this.db.sql.query('SELECT 1');
    } catch (error) {
      // The cause names hosts, users and databases: it is for the operator's log, not for whoever asks.
      this.logger.warn(`database check failed: ${(error as Error).message}`);
      throw new ServiceUnavailableException('database: unavailable');
    }
    return { status: 'ok', pid: process.pid, rssBytes: process.memoryUsage.rss() };
  }

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply) {
    const report = await readiness(this.checks);
    await reply
      .status(report.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  }
}
