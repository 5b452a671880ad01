import { Module, type DynamicModule } from '@nestjs/common';
import type { DnsResolve } from '@letterbox/mail-auth';
import { InfrastructureModule } from '@letterbox/nest-infrastructure';
import { GATEWAY_TOKEN } from './inbound/gateway-token.guard';
import { InboundController } from './inbound/inbound.controller';
import type { IngestConfig } from './ingest.config';
import { IngestServicesModule } from './ingest-services.module';

@Module({})
export class IngestModule {
  /** `dns` makes the checks' DNS lookups; the system's servers without it. */
  static forConfig(config: IngestConfig, dns?: DnsResolve): DynamicModule {
    return {
      module: IngestModule,
      imports: [InfrastructureModule.forApp('ingest', config), IngestServicesModule.forConfig(config, dns)],
      controllers: [InboundController],
      providers: [{ provide: GATEWAY_TOKEN, useValue: config.INGEST_TOKEN }],
    };
  }
}
