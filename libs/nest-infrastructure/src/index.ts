export { InfrastructureModule, type InfrastructureSettings } from './infrastructure.module';
export { DATABASE } from './database-token';
