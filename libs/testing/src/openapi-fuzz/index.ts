export { fetchOpenApiDocument, operationsOf, pathParameterMismatches, type OpenApiDocument, type Operation } from './openapi-document';
export { fuzzRequests } from './fuzz-requests';
export type { FuzzOptions, FuzzRequest } from './fuzz-request-types';
export { runFuzz, describeFindings, type Finding, type FuzzRunOptions } from './run-fuzz';
export type { Hostile } from './hostile-values';
