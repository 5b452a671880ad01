import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BearerAuthGuard } from '@letterbox/auth';
import { InfrastructureModule } from '@letterbox/nest-infrastructure';
import type { SendApiConfig } from './send-api.config';
import { SendServicesModule } from './send-services.module';
import { DraftsController } from './drafts/drafts.controller';
import { SendsController } from './sends/sends.controller';

@Module({})
export class SendApiModule {
  static forConfig(config: SendApiConfig): DynamicModule {
    return {
      module: SendApiModule,
      imports: [InfrastructureModule.forApp('send-api', config), SendServicesModule.forConfig(config)],
      controllers: [SendsController, DraftsController],
      providers: [{ provide: APP_GUARD, useClass: BearerAuthGuard }],
    };
  }
}
