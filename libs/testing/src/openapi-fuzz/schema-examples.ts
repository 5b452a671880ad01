import type { JsonSchema } from './openapi-document';

/** How deep into nested objects fields are fuzzed one by one. */
const MAX_FIELD_DEPTH = 3;

/**
 * A plausible value of the schema: its default or first enum value, else a value of its
 * type. An object gets its required properties only, so that each fuzzed field is the
 * one thing wrong with a body whose other required fields are right.
 */
export function exampleOf(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.test';
      if (schema.format === 'date-time') return '2020-01-01T00:00:00Z';
      return 'fuzz';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return schema.items ? [exampleOf(schema.items)] : [];
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, exampleOf(schema.properties?.[name] ?? {})]));
    default:
      return 'fuzz';
  }
}

/** Each property of an object schema as a path, those of nested objects too. */
export function fieldPathsOf(schema: JsonSchema, prefix: string[] = []): string[][] {
  if (prefix.length >= MAX_FIELD_DEPTH) return [];
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => [[...prefix, name], ...fieldPathsOf(property, [...prefix, name])]);
}

const PLACEHOLDER = '\u0001fuzz\u0001';

/** The body as JSON with the field at `path` set to `rawJson`, which is sent as written (1e400 stays 1e400). */
export function jsonWithField(body: Record<string, unknown>, path: string[], rawJson: string): string {
  const copy = structuredClone(body);
  let parent: Record<string, unknown> = copy;
  for (const name of path.slice(0, -1)) {
    const next = parent[name];
    parent = parent[name] = typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
  }
  parent[path[path.length - 1]] = PLACEHOLDER;
  return JSON.stringify(copy).replace(JSON.stringify(PLACEHOLDER), () => rawJson);
}
