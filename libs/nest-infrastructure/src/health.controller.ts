import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { DATABASE } from './database-token';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  @Public()
  @Get()
  async check() {
    try {
      await this.db.sql.query('SELECT 1');
    } catch (error) {
      throw new ServiceUnavailableException(`database: ${(error as Error).message}`);
    }
    return { status: 'ok', pid: process.pid, rssBytes: process.memoryUsage.rss() };
  }
}
