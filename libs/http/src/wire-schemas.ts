import { z } from 'zod';

/**
 * What an API answers is a zod schema with an `id` (`.meta({ id: 'MailSummary' })`), kept by
 * the lib that makes the value: its TypeScript type is z.infer of it, OpenAPI shows it as the
 * component of that name, and the webmail's types are generated from that component.
 */
export function wireSchemaId(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('a response schema needs an id: .meta({ id })');
  return id;
}

export const componentRef = (id: string) => `#/components/schemas/${id}`;

/**
 * The schema whole, every part written out where it is used: what Fastify compiles into a
 * serializer (OpenAPI 3.0's `nullable`, which the serializer knows, rather than an anyOf it
 * would test value by value).
 */
export function serializerSchema(schema: z.ZodType): object {
  return z.toJSONSchema(schema, { target: 'openapi-3.0', metadata: z.registry(), unrepresentable: 'any' });
}

/** Every schema with an id, as OpenAPI components referring to each other by name. */
export function wireComponents(): Record<string, Record<string, unknown>> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, { target: 'openapi-3.0', uri: componentRef, unrepresentable: 'any' });
  return Object.fromEntries(Object.entries(schemas).map(([id, { $id: _id, ...schema }]) => [id, schema]));
}
