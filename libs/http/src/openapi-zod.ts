import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery } from '@nestjs/swagger';
import { z } from 'zod';

type JsonSchema = { properties?: Record<string, object>; required?: string[] };

/** Documents each field of a query schema in OpenAPI, from the schema that validates it. */
export function ApiZodQuery(schema: z.ZodObject): MethodDecorator {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const required = new Set(json.required ?? []);
  return applyDecorators(
    ...Object.entries(json.properties ?? {}).map(([name, property]) =>
      ApiQuery({ name, required: required.has(name), schema: property }),
    ),
  );
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
