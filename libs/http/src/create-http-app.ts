import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { useJsonBodyParser } from './json-body-parser';
import { ProblemDetailsFilter, type ErrorClassifier } from './problem-details';

export interface HttpAppOptions {
  title: string;
  description: string;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  logger?: false | Array<'log' | 'error' | 'warn' | 'debug' | 'verbose'>;
  /** The app's own errors that are the client's fault, as problem statuses. */
  classifyError?: ErrorClassifier;
  /** Browser origins allowed to call the API; none: no CORS at all. */
  corsOrigins?: string[];
  /** Proxies whose X-Forwarded-For is believed; by default only loopback (the webmail's proxy on this machine). */
  trustedProxies?: string[];
}

/** Pages for people, not for scripts of other sites: no CORS, whatever the origin. */
const NO_CORS_PATHS = /^\/admin(\/|$)/;

/**
 * A NestJS app on Fastify (about five times the throughput of Express here), with every
 * error as problem+json and OpenAPI served at /docs.
 */
export async function createHttpApp(module: Type<unknown> | DynamicModule, options: HttpAppOptions): Promise<NestFastifyApplication> {
  // Path parameters such as FCM registration tokens run to a few hundred characters; the router's default limit is 100.
  const adapter = new FastifyAdapter({ bodyLimit: options.bodyLimit, trustProxy: options.trustedProxies ?? ['loopback'], routerOptions: { maxParamLength: 1024 } });
  useJsonBodyParser(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: options.logger ?? ['log', 'error', 'warn'],
    // Ours, registered below, names the field of a malformed body.
    bodyParser: false,
  });
  app.useGlobalFilters(new ProblemDetailsFilter(options.classifyError));
  app.enableShutdownHooks();
  const origins = options.corsOrigins ?? [];
  if (origins.length > 0) {
    // Bearer tokens, never cookies: no credentials, so a page of an allowed origin still needs the user's token.
    const allowed = { origin: origins, credentials: false, exposedHeaders: ['Location', 'Retry-After', 'ETag', 'X-Request-Id'] };
    app.enableCors({ delegator: (request, allow) => allow(null, NO_CORS_PATHS.test(request.url ?? '') ? { origin: false } : allowed) });
  }
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder().setTitle(options.title).setDescription(options.description).setVersion('2').addBearerAuth().build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
  return app;
}
