import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BearerAuthGuard } from '@letterbox/auth';
import { HealthController } from './health/health.controller';
import { InfrastructureModule } from './infrastructure.module';
import type { SendApiConfig } from './send-api.config';
import { SendsController } from './sends/sends.controller';

@Module({})
export class SendApiModule {
  static forConfig(config: SendApiConfig): DynamicModule {
    return {
      module: SendApiModule,
      imports: [InfrastructureModule.forConfig(config)],
      controllers: [SendsController, HealthController],
      providers: [{ provide: APP_GUARD, useClass: BearerAuthGuard }],
    };
  }
}
