import type { INestApplicationContext } from '@nestjs/common';
import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ProblemAnswers } from './problem-details';
import { componentRef, serializerSchema, wireSchemaId } from './wire-schemas';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which requests of the route are logged: every one (the default), or only those that failed or were slow. */
    requestLog?: 'every' | 'failures-and-slow';
  }
}

/**
 * What a direct route's request answers: its body (sent as JSON), or undefined when the handler sent the answer itself.
 * Not the reply: an async function returning it makes Fastify wait for the response's end through Reply.then, a
 * listener and a promise more on every request.
 */
export type DirectHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * A route Fastify serves beside Nest, for the hottest reads: Nest's guard, interceptors, pipes and exception
 * filter cost most of such a request. It keeps what every route of the app has: the request id, the CORS
 * headers and the metrics (the app's Fastify hooks), errors as problem+json (ProblemAnswers, as Nest's routes);
 * its handler signs the user in with the guard's own check (signedInUser). Its request is logged only when it
 * failed or was slow. OpenAPI describes it from `operation`, as no decorator does.
 */
export interface DirectRoute {
  method: 'GET';
  url: string;
  operation: OperationObject;
  /** Answers Fastify writes with a serializer compiled from the schema (as ApiZodResponse's `serialize`), by status. */
  serialized?: Record<number, z.ZodType>;
  /** The handler, made from the app's providers once the app is made (never in OpenAPI's preview). */
  handler(app: INestApplicationContext): DirectHandler;
}

/** An answer of a direct route in OpenAPI: the component of the zod schema, as ApiZodResponse documents Nest's. */
export function documentedResponse(schema: z.ZodType): ResponseObject {
  return { description: '', content: { 'application/json': { schema: { $ref: componentRef(wireSchemaId(schema)) } } } };
}

/** Registers the routes on the app's Fastify instance: before Nest's own, which must not declare the same. */
export function serveDirectly(fastify: FastifyInstance, app: INestApplicationContext, routes: DirectRoute[], problems: ProblemAnswers): void {
  for (const route of routes) {
    const handle = route.handler(app);
    fastify.route({
      method: route.method,
      url: route.url,
      config: { requestLog: 'failures-and-slow' },
      ...(route.serialized && {
        schema: { response: Object.fromEntries(Object.entries(route.serialized).map(([status, schema]) => [status, serializerSchema(schema)])) },
      }),
      // The handler's own promise, not an async wrapper's around it: the hottest routes, a promise less on each request.
      handler: (request, reply) =>
        handle(request, reply).catch((error: unknown) => {
          problems.answer(error, request, reply);
          return undefined;
        }),
    });
  }
}

/** The document with the direct routes' operations added to their paths. */
export function withDirectRoutes(document: OpenAPIObject, routes: DirectRoute[]): OpenAPIObject {
  const paths = { ...document.paths };
  for (const route of routes) paths[route.url] = { [route.method.toLowerCase()]: route.operation, ...paths[route.url] };
  return { ...document, paths };
}
