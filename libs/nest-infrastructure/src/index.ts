export { AUTH_REDIS, InfrastructureModule, type AuthRedis } from './infrastructure.module';
export { DATABASE } from './database-token';
export { READ_ROUTING } from './read-routing-token';
export { listenForOperators } from './ops-listener';
