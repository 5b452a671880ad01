/** The part of JSON Schema the fuzzer reads to build bodies. */
export interface JsonSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** The part of an OpenAPI 3 document the fuzzer reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export interface Operation {
  /** `GET /v2/mails/{id}`: how findings and options name it. */
  label: string;
  method: string;
  /** The path template, `{name}` for each parameter. */
  path: string;
  parameters: OpenApiParameter[];
  /** The media types its body is declared in. */
  consumes: string[];
  bodySchema?: JsonSchema;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => {
        const content = operation.requestBody?.content ?? {};
        return {
          label: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          path,
          parameters: operation.parameters ?? [],
          consumes: Object.keys(content),
          bodySchema: Object.values(content).find((media) => media.schema)?.schema,
        };
      }),
  );
}

export function pathTemplateNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
}

/**
 * Where a path template and its declared path parameters disagree (OpenAPI requires each
 * `{name}` declared with `in: path` and `required: true`), as `GET /v2/mails/{id}: id ...`.
 */
export function pathParameterMismatches(document: OpenApiDocument): string[] {
  return operationsOf(document).flatMap((operation) => {
    const inTemplate = pathTemplateNames(operation.path);
    const declared = operation.parameters.filter((parameter) => parameter.in === 'path');
    const declaredNames = declared.map((parameter) => parameter.name);
    return [
      ...inTemplate.filter((name) => !declaredNames.includes(name)).map((name) => `${operation.label}: ${name} is not declared`),
      ...declaredNames.filter((name) => !inTemplate.includes(name)).map((name) => `${operation.label}: ${name} is declared but not in the path`),
      ...declared.filter((parameter) => parameter.required !== true).map((parameter) => `${operation.label}: ${parameter.name} is not marked required`),
    ];
  });
}

/** The document a running API serves about itself. */
export async function fetchOpenApiDocument(url: string): Promise<OpenApiDocument> {
  const response = await fetch(`${url}/docs/openapi.json`);
  if (response.status !== 200) throw new Error(`${url}/docs/openapi.json answered ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}
