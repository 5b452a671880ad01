import { Module } from '@nestjs/common';
import type { Database } from '@letterbox/db';
import { DATABASE } from '@letterbox/nest-infrastructure';
import { DeviceRegistry } from '@letterbox/push';
import { DevicesController } from './devices.controller';

/** Registering and removing the devices that get push notifications. */
@Module({
  controllers: [DevicesController],
  providers: [{ provide: DeviceRegistry, useFactory: (db: Database) => new DeviceRegistry(db.sql), inject: [DATABASE] }],
})
export class DevicesModule {}
