import { Module, type DynamicModule } from '@nestjs/common';
import { InfrastructureModule } from '@letterbox/nest-infrastructure';
import { GATEWAY_TOKEN } from './inbound/gateway-token.guard';
import { InboundController } from './inbound/inbound.controller';
import type { IngestConfig } from './ingest.config';
import { IngestServicesModule } from './ingest-services.module';

@Module({})
export class IngestModule {
  static forConfig(config: IngestConfig): DynamicModule {
    return {
      module: IngestModule,
      imports: [InfrastructureModule.forApp('ingest', config), IngestServicesModule.forConfig(config)],
      controllers: [InboundController],
      providers: [{ provide: GATEWAY_TOKEN, useValue: config.INGEST_TOKEN }],
    };
  }
}
