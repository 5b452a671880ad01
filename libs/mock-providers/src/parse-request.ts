import type { ProblemDetails } from '@letterbox/http';
import type { z } from 'zod';

type FieldError = NonNullable<ProblemDetails['errors']>[number];

/** A request whose body or query failed validation, with each field at fault. */
export class InvalidRequest extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((error) => `${error.field}: ${error.message}`).join('; '));
  }
}

/** Parses a request part, or throws an InvalidRequest naming every bad field; `part` names what has no path of its own. */
export function parseRequest<Schema extends z.ZodType>(schema: Schema, value: unknown, part: 'body' | 'query'): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new InvalidRequest(
    result.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({ field: [...issue.path, key].join('.'), message: 'is not a known setting' }))
        : [{ field: issue.path.length ? issue.path.join('.') : part, message: issue.message }],
    ),
  );
}
