import { HOSTILE_BODIES, HOSTILE_JSON_VALUES, type Hostile } from './hostile-values';
import type { FuzzOptions, FuzzRequest, MakeRequest } from './fuzz-request-types';
import type { JsonSchema, Operation } from './openapi-document';
import { exampleOf, fieldPathsOf, jsonWithField } from './schema-examples';

/** Whole hostile bodies; then, for a body with a schema, each field made hostile in JSON and, where multipart is declared, in a form. */
export function bodyRequests(operation: Operation, options: FuzzOptions, strings: ReadonlyArray<Hostile<string>>, request: MakeRequest): FuzzRequest[] {
  const whole = HOSTILE_BODIES.map(({ name, contentType, body }) =>
    request(`body: ${name}`, { headers: contentType === undefined ? {} : { 'content-type': contentType }, body }),
  );
  const schema = operation.bodySchema;
  if (!schema?.properties) return whole;
  const base = options.bodies?.[operation.label] ?? (exampleOf(schema) as Record<string, unknown>);
  const fields = fieldPathsOf(schema);
  const jsonFields = fields.flatMap((field) =>
    HOSTILE_JSON_VALUES.map(({ name, value }) =>
      request(`body.${field.join('.')}: ${name}`, { headers: { 'content-type': 'application/json' }, body: jsonWithField(base, field, value) }),
    ),
  );
  const formFields = operation.consumes.includes('multipart/form-data') ? formRequests(schema, base, options.fileField, strings, request) : [];
  return [...whole, ...jsonFields, ...formFields];
}

function formRequests(
  schema: JsonSchema,
  base: Record<string, unknown>,
  fileField: string | undefined,
  strings: ReadonlyArray<Hostile<string>>,
  request: MakeRequest,
): FuzzRequest[] {
  const form = (changes: Record<string, string[]>, file?: { filename: string; type: string }) => {
    const data = new FormData();
    for (const [name, values] of Object.entries({ ...formFieldsOf(base), ...changes })) for (const value of values) data.append(name, value);
    if (fileField && file) data.append(fileField, new Blob(['fuzz'], { type: file.type }), file.filename);
    return data;
  };
  const fields = Object.keys(schema.properties ?? {}).flatMap((name) => [
    ...strings.map(({ name: what, value }) => request(`form ${name}: ${what}`, { body: form({ [name]: [value] }) })),
    request(`form ${name}: repeated`, { body: form({ [name]: ['1', '1'] }) }),
  ]);
  const files = fileField
    ? [
        ...strings.map(({ name: what, value }) => request(`form ${fileField} filename: ${what}`, { body: form({}, { filename: value, type: 'text/plain' }) })),
        ...strings.map(({ name: what, value }) =>
          request(`form ${fileField} content type: ${what}`, { body: form({}, { filename: 'fuzz.txt', type: value }) }),
        ),
      ]
    : [];
  return [...fields, ...files];
}

/** A JSON body as form fields: arrays as repeated fields, objects as JSON text. */
function formFieldsOf(body: Record<string, unknown>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [
      name,
      (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))),
    ]),
  );
}
