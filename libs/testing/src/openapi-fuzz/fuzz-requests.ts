import { bodyRequests } from './body-requests';
import type { FuzzOptions, FuzzRequest } from './fuzz-request-types';
import { HOSTILE_ENCODINGS, HOSTILE_STRINGS } from './hostile-values';
import { pathTemplateNames, type OpenApiParameter, type Operation } from './openapi-document';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What a client can put in a header at all: fetch refuses control characters and non-Latin-1 text. */
const SENDABLE_HEADER = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Every hostile request for the operations, in a fixed order: the same list on every run. */
export function fuzzRequests(operations: Operation[], options: FuzzOptions = {}): FuzzRequest[] {
  const strings = [...HOSTILE_STRINGS, ...(options.extraStrings ?? [])];
  const encoded = [...strings.map(({ name, value }) => ({ name, value: encodeURIComponent(value) })), ...HOSTILE_ENCODINGS];
  return operations.flatMap((operation) => {
    const segments = Object.fromEntries(
      pathTemplateNames(operation.path).map((name) => [name, encodeURIComponent(options.pathValue?.(operation.path, name) ?? '1')]),
    );
    const url = (changed: Record<string, string> = {}, query = '') =>
      operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => changed[name] ?? segments[name]) + query;
    const request = (input: string, changes: Partial<FuzzRequest> = {}): FuzzRequest => ({
      operation,
      input,
      method: operation.method,
      url: url(),
      headers: {},
      ...changes,
    });
    const parameters = (place: OpenApiParameter['in']) => operation.parameters.filter((parameter) => parameter.in === place);

    // From the template, not the declarations: a parameter the document forgets is fuzzed all the same.
    const pathCases = Object.keys(segments).flatMap((name) =>
      encoded.map(({ name: what, value }) => request(`path ${name}: ${what}`, { url: url({ [name]: value }) })),
    );
    const queryCases = parameters('query').flatMap(({ name }) => {
      const key = encodeURIComponent(name);
      return [
        ...encoded.map(({ name: what, value }) => request(`query ${name}: ${what}`, { url: url({}, `?${key}=${value}`) })),
        request(`query ${name}: repeated`, { url: url({}, `?${key}=1&${key}=1`) }),
        request(`query ${name}: repeated with different values`, { url: url({}, `?${key}=a&${key}=b`) }),
        request(`query ${name}: bracketed array`, { url: url({}, `?${key}[]=1&${key}[]=2`) }),
        request(`query ${name}: without a value`, { url: url({}, `?${key}`) }),
      ];
    });
    const headerCases = parameters('header').flatMap(({ name }) =>
      strings
        .filter(({ value }) => SENDABLE_HEADER.test(value))
        .map(({ name: what, value }) => request(`header ${name}: ${what}`, { headers: { [name]: value } })),
    );
    const bodyCases = BODY_METHODS.has(operation.method) ? bodyRequests(operation, options, strings, request) : [];
    return [...pathCases, ...queryCases, ...headerCases, ...bodyCases];
  });
}
