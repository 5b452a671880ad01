import path from 'node:path';
import { answersHealth, startService, type ChildService } from './child-service';

const NAIVE_READ_PORT = 3900;
const READ_SERVER_FILE = path.join(__dirname, '../naive/naive-read-server.ts');

export interface NaiveServer extends Pick<ChildService, 'pid' | 'unexpectedExit' | 'stop'> {
  base: URL;
  /** What the scenario reports about the naive run beyond its load figures (e.g. what its provider counted). */
  notes?(): Promise<string[]>;
}

export interface NaiveServerSpec {
  file: string;
  port: number;
  /** The environment variable the server reads its port from. */
  portVariable: string;
  env?: Record<string, string>;
  nodeArgs?: string[];
}

/** Starts a bench/naive server on 127.0.0.1 and waits until it answers /health. */
export async function startNaiveServer(spec: NaiveServerSpec): Promise<NaiveServer> {
  const base = new URL(`http://127.0.0.1:${spec.port}`);
  if (await answersHealth(base)) throw new Error(`port ${spec.port} is taken; stop what listens there (a naive server left over?)`);
  const service = await startService({
    name: 'the naive server',
    args: [...(spec.nodeArgs ?? []), '--require', '@swc-node/register', spec.file],
    env: { ...spec.env, [spec.portVariable]: String(spec.port) },
    ready: () => answersHealth(base),
  });
  return { base, pid: service.pid, unexpectedExit: service.unexpectedExit, stop: service.stop };
}

/**
 * bench/naive/naive-read-server.ts on 127.0.0.1:3900 with a 512 MB heap, the limit the
 * read API gets for detail-22m.
 */
export function startNaiveReadServer(): Promise<NaiveServer> {
  return startNaiveServer({ file: READ_SERVER_FILE, port: NAIVE_READ_PORT, portVariable: 'NAIVE_READ_PORT', nodeArgs: ['--max-old-space-size=512'] });
}
