import { applyDecorators } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import { ApiBody, ApiParam, ApiQuery, ApiResponse, type SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';
import { componentRef, serializerSchema, wireSchemaId } from './wire-schemas';

type JsonSchema = { properties?: Record<string, SchemaObject>; required?: string[] };

/** Documents each field of a query schema in OpenAPI, from the schema that validates it. */
export function ApiZodQuery(schema: z.ZodObject): MethodDecorator {
  return applyDecorators(...queryParameters(schema).map(({ name, required, schema: property }) => ApiQuery({ name, required, schema: property })));
}

/** Each field of a query schema as an OpenAPI parameter: for ApiZodQuery, and for routes served beside Nest. */
export function queryParameters(schema: z.ZodObject): Array<{ name: string; required: boolean; in: 'query'; schema: SchemaObject }> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({ name, required: required.has(name), in: 'query', schema: property }));
}

/**
 * Documents each path parameter, from the schema that validates them: a whole-object
 * @Param() with a pipe shows nothing in OpenAPI, which requires every `{name}` of a path.
 */
export function ApiZodPath(schema: z.ZodObject): MethodDecorator {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return applyDecorators(...Object.entries(json.properties ?? {}).map(([name, property]) => ApiParam({ name, required: true, schema: property })));
}

/** Documents a JSON body in OpenAPI, from the schema that validates it. */
export function ApiZodBody(schema: z.ZodType): MethodDecorator {
  return ApiBody({ schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as object });
}

/**
 * Documents what a route answers with `status`: the component named by the schema's id.
 * `serialize`: Fastify writes the answer with a serializer compiled from the schema (several
 * times faster than JSON.stringify on a page of mails), which leaves out any field it does not name.
 */
export function ApiZodResponse(status: number, schema: z.ZodType, options: { serialize?: boolean } = {}): MethodDecorator {
  const documented = ApiResponse({ status, description: '', schema: { $ref: componentRef(wireSchemaId(schema)) } });
  if (!options.serialize) return documented;
  return applyDecorators(documented, RouteSchema({ response: { [status]: serializerSchema(schema) } }));
}
