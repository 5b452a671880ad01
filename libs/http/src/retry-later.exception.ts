import { HttpException } from '@nestjs/common';

/** A refusal that ends: answered with Retry-After, so a client knows when to try again (429 or 503). */
export class RetryLaterException extends HttpException {
  constructor(
    status: 429 | 503,
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail, status);
  }
}
