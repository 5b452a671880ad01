import path from 'node:path';
import { builtApp, portTaken } from './bench-apps';
import { answersHealth, startService, type ChildService } from './child-service';
import { commandLineOf, processEnvironment, workingDirectoryOf } from './process-tree';

/** Next to the bench's S3 server (3940). */
export const S3_READ_API_PORT = 3941;
const HEAP_LIMIT = /^--max-old-space-size=\d+$/;

export interface S3ReadApi extends ChildService {
  base: URL;
  /** How both APIs were started, and whether they run the same code. */
  notes: string[];
}

/**
 * Starts a second read API from dist/ on 127.0.0.1:3941 with blobs in the bench's S3.
 * It gets the disk read API's environment (database, Redis, workers, render cache,
 * NODE_OPTIONS) and its heap limit, so that storage is what differs between the two.
 */
export async function startS3ReadApi(diskApiPid: number, s3Env: Record<string, string>): Promise<S3ReadApi> {
  if (await portTaken(S3_READ_API_PORT)) throw new Error(`port ${S3_READ_API_PORT} is taken; stop what listens there (an S3 read API left over?)`);
  const base = new URL(`http://127.0.0.1:${S3_READ_API_PORT}`);
  const script = builtApp('read-api');
  const diskCommand = commandLineOf(diskApiPid);
  const nodeArgs = ['--enable-source-maps', ...diskCommand.filter((arg) => HEAP_LIMIT.test(arg))];
  const environment = processEnvironment(diskApiPid);
  const service = await startService({
    name: 'the read API on S3',
    args: [...nodeArgs, script],
    // Its log level too: unset, the harness would quiet it below the disk API's.
    env: { LOG_LEVEL: undefined, ...environment, ...s3Env, READ_API_PORT: String(S3_READ_API_PORT), READ_API_HOST: '127.0.0.1' },
    ready: () => answersHealth(base),
    // Nest, Prisma and the S3 client load on a machine that the bench may keep busy.
    startTimeoutMs: 60_000,
  });
  const cwd = workingDirectoryOf(diskApiPid) ?? '/';
  const sameCode = diskCommand.some((arg) => path.resolve(cwd, arg) === script);
  const notes = [
    `disk read API: pid ${diskApiPid}, ${diskCommand.join(' ')}; S3 read API: pid ${service.pid}, node ${nodeArgs.join(' ')} ${path.relative(process.cwd(), script)}, ` +
      "the disk API's environment with STORAGE_BACKEND=s3",
    renderCacheNote(environment.READ_API_RENDER_CACHE_MB),
    ...(sameCode ? [] : [`WARNING: the disk read API does not run ${script}: the two APIs may differ in more than storage`]),
  ];
  return { ...service, base, notes };
}

/** With the render cache on, a detail read after the first of a mail reads nothing from storage, on either backend. */
function renderCacheNote(megabytes: string | undefined): string {
  if (megabytes === '0') return 'render cache off in both APIs (READ_API_RENDER_CACHE_MB=0): every detail read reads its parts from storage';
  return (
    `render cache on in both APIs (READ_API_RENDER_CACHE_MB ${megabytes ?? 'unset: its default'}): detail reads after a mail's first are served from memory, ` +
    'so the detail scenarios compare little storage; start the disk read API with READ_API_RENDER_CACHE_MB=0 to make every read go to storage'
  );
}
