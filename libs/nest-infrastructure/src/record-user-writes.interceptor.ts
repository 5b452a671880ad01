import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { catchError, concatMap, from, map, throwError, type Observable } from 'rxjs';
import type { AuthenticatedUser } from '@letterbox/auth';
import type { UserWrites } from '@letterbox/db';
import { READ_ROUTING } from './read-routing-token';

const READING_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every request of a signed-in user that may write (any method but GET, HEAD and OPTIONS)
 * is recorded once it is done and before it is answered, so the user's next request reads
 * what it wrote, whichever process serves it. Here rather than in each use case: a new
 * write cannot be forgotten. A request that failed is recorded too, since it may have
 * committed before failing. Registered only with a replica: without one there is nothing
 * to record.
 */
@Injectable()
export class RecordUserWritesInterceptor implements NestInterceptor {
  constructor(@Inject(READ_ROUTING) private readonly writes: UserWrites) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<{ method: string; user?: AuthenticatedUser }>();
    if (READING_METHODS.has(request.method)) return next.handle();
    const recorded = () => from(request.user ? this.writes.record([request.user.userId]) : Promise.resolve());
    return next.handle().pipe(
      concatMap((result) => recorded().pipe(map(() => result))),
      catchError((error: unknown) => recorded().pipe(concatMap(() => throwError(() => error)))),
    );
  }
}
