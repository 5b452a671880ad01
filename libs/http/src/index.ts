export { createHttpApp, type HttpAppOptions } from './create-http-app';
export { ProblemDetailsFilter, problemBody, type ProblemDetails, type ErrorClassifier } from './problem-details';
export { parseByteRange, type ParsedRange } from './byte-range';
export { contentDisposition } from './content-disposition';
export { ZodValidationPipe, type RequestPart } from './zod-validation.pipe';
export { ApiZodQuery, ApiZodBody } from './openapi-zod';
export { runClustered } from './run-clustered';
export { integerParam } from './request-params';
