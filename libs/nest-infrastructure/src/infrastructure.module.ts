import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { AccessTokens } from '@letterbox/auth';
import { createDatabase, type Database } from '@letterbox/db';
import { BlobStore, type Compression } from '@letterbox/storage';
import { DATABASE } from './database-token';
import { HealthController } from './health.controller';

export interface InfrastructureSettings {
  DATABASE_URL: string;
  DATABASE_POOL_SIZE: number;
  DATABASE_STATEMENT_TIMEOUT_MS: number;
  STORAGE_DIR: string;
  STORAGE_COMPRESS: Compression;
  AUTH_TOKEN_SECRET: string;
  AUTH_TOKEN_TTL_SECONDS: number;
}

/**
 * What every Letterbox API needs, built once from its validated settings: the database,
 * blob storage, access tokens and `/health`. The database closes when the app shuts down.
 */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  static forApp(appName: string, settings: InfrastructureSettings): DynamicModule {
    const providers = [
      {
        provide: DATABASE,
        useFactory: () =>
          createDatabase({
            url: settings.DATABASE_URL,
            poolSize: settings.DATABASE_POOL_SIZE,
            applicationName: `letterbox-${appName}`,
            statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
          }),
      },
      { provide: BlobStore, useFactory: () => new BlobStore(settings.STORAGE_DIR, settings.STORAGE_COMPRESS) },
      { provide: AccessTokens, useFactory: () => new AccessTokens(settings.AUTH_TOKEN_SECRET, settings.AUTH_TOKEN_TTL_SECONDS) },
    ];
    return { module: InfrastructureModule, providers, controllers: [HealthController], exports: providers.map((provider) => provider.provide) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
