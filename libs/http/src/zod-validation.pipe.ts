import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';

export type RequestPart = 'query' | 'body' | 'path' | 'header';

/**
 * Validates and converts one part of a request with a zod schema. A failure is a 400
 * whose `errors` name each field (`query.limit`, `body.email`) and what is wrong with it.
 */
@Injectable()
export class ZodValidationPipe<Schema extends z.ZodType> implements PipeTransform<unknown, z.infer<Schema>> {
  constructor(
    private readonly schema: Schema,
    private readonly part: RequestPart,
  ) {}

  transform(value: unknown): z.infer<Schema> {
    const result = this.schema.safeParse(value ?? {});
    if (result.success) return result.data;
    const errors = result.error.issues.flatMap((issue) => {
      const path = [this.part, ...issue.path.map(String)];
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: 'is not a known parameter' }));
      }
      return [{ field: path.join('.'), message: issue.message }];
    });
    throw new BadRequestException({
      type: 'about:blank',
      detail: errors.map((error) => `${error.field}: ${error.message}`).join('; '),
      errors,
    });
  }
}
