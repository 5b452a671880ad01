import { writeFile } from 'node:fs/promises';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { withDirectRoutes, type DirectRoute } from './direct-routes';
import { componentRef, wireComponents } from './wire-schemas';

export interface ApiDescription {
  title: string;
  description: string;
  /** Routes Fastify serves beside Nest (DirectRoute): in the document as Nest's routes are. */
  directRoutes?: DirectRoute[];
}

/** The OpenAPI document of an app's routes, with the components its responses name and those name in turn. */
export function openApiDocument(app: INestApplication, api: ApiDescription): OpenAPIObject {
  const document = withDirectRoutes(
    SwaggerModule.createDocument(app, new DocumentBuilder().setTitle(api.title).setDescription(api.description).setVersion('2').addBearerAuth().build()),
    api.directRoutes ?? [],
  );
  const components = wireComponents();
  const named = namedComponents(document.paths, components);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...Object.fromEntries(named.map((id) => [id, components[id]])) },
  };
  return document;
}

/** The ids of the components `node` refers to, directly or through other components. */
function namedComponents(node: unknown, components: Record<string, unknown>, named = new Set<string>()): string[] {
  const prefix = componentRef('');
  if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key !== '$ref' || typeof value !== 'string' || !value.startsWith(prefix)) namedComponents(value, components, named);
      else if (!named.has(value.slice(prefix.length))) {
        named.add(value.slice(prefix.length));
        namedComponents(components[value.slice(prefix.length)], components, named);
      }
    }
  }
  return [...named].sort();
}

/**
 * The same document without starting the app: Nest's preview mode reads the modules'
 * controllers and decorators but makes no provider, so nothing connects to a database.
 */
export async function previewOpenApiDocument(module: Type<unknown> | DynamicModule, api: ApiDescription): Promise<OpenAPIObject> {
  const app = await NestFactory.create(module, new FastifyAdapter(), { preview: true, logger: false });
  try {
    return openApiDocument(app, api);
  } finally {
    await app.close();
  }
}

/**
 * An API's OpenAPI document written to the file named on the command line, the API not
 * started (preview mode); the process exits when it is written. Each app's
 * write-openapi-document.ts calls it, so that tooling reads the documents without importing an app.
 */
export function writeOpenApiDocumentFromArgs(module: () => Type<unknown> | DynamicModule, api: ApiDescription): void {
  const file = process.argv[2];
  const written = file
    ? previewOpenApiDocument(module(), api).then((document) => writeFile(file, `${JSON.stringify(document, null, 2)}\n`))
    : Promise.reject(new Error('usage: write-openapi-document.ts <file>'));
  written.then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
