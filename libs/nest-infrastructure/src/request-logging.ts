import { LoggerModule } from 'nestjs-pino';
import { rootLogger } from '@letterbox/observability';

/**
 * nestjs-pino as Nest's logger, over the process's pino logger: what Nest and the routes log goes out as JSON
 * lines, with the request id of the request being served (the logger's mixin). Its per-request middleware
 * is not used: it ran every request through Nest's middleware engine and a child logger, about a fifth of a
 * point query's CPU; the request line is written by a Fastify hook instead (libs/http).
 */
export const RequestLoggingModule = LoggerModule.forRoot({ pinoHttp: { logger: rootLogger() }, forRoutes: [] });
