import { Controller, Get, Inject, Logger, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { DATABASE } from './database-token';

@ApiTags('health')
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('health');

  constructor(@Inject(DATABASE) private readonly db: Database) {}

  @Public()
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
}
