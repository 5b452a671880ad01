import { poll, startNodeProcess } from '@letterbox/testing';

const DEFAULT_START_TIMEOUT_MS = 30_000;
const DEFAULT_STOP_GRACE_MS = 5_000;
const OUTPUT_TAIL_BYTES = 4096;

export interface ServiceSpec {
  /** As it reads in messages, e.g. "the naive server". */
  name: string;
  /** Arguments to node. */
  args: string[];
  /** Added to the harness's own environment; an undefined value takes a variable out. */
  env: Record<string, string | undefined>;
  /** True once the service can be used; polled every 200 ms. */
  ready(): Promise<boolean>;
  startTimeoutMs?: number;
  /** How long SIGTERM is given before SIGKILL. */
  stopGraceMs?: number;
}

/** A node process the harness started; it never outlives the harness. */
export interface ChildService {
  pid: number;
  /** Why it exited by itself, if it did (e.g. out of memory); undefined while it runs. */
  unexpectedExit(): string | undefined;
  /** The last few KB it wrote to stdout and stderr. */
  outputTail(): string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash or the OOM killer ends it: nothing in flight is finished. */
  kill(): Promise<void>;
}

/** Starts `node <args>` from the repository root and waits until it is ready. */
export async function startService(spec: ServiceSpec): Promise<ChildService> {
  // No line per request: logging is not what is measured.
  const child = startNodeProcess(spec.name, spec.args, { env: { LOG_LEVEL: 'warn', ...spec.env } });
  const outputTail = () => child.output().slice(-OUTPUT_TAIL_BYTES);
  let exitReason: string | undefined;
  let stopping = false;
  void child.exited.then((status) => {
    if (!stopping) exitReason = `exited with ${typeof status === 'number' ? `code ${status}` : status}; its last output:\n${outputTail().trim()}`;
  });

  const service: ChildService = {
    pid: child.pid,
    unexpectedExit: () => exitReason,
    outputTail,
    async stop() {
      stopping = true;
      await child.stop('SIGTERM', spec.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
    },
    async kill() {
      stopping = true;
      await child.stop('SIGKILL');
    },
  };
  const timeoutMs = spec.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const ready = await poll(
    async () => {
      if (exitReason) throw new Error(`${spec.name} did not start: it ${exitReason}`);
      return spec.ready();
    },
    { timeoutMs, intervalMs: 200 },
  );
  if (!ready) {
    await service.stop();
    throw new Error(`${spec.name} was not ready within ${timeoutMs / 1000} s; its last output:\n${outputTail().trim()}`);
  }
  return service;
}

/** Whether GET <base>/health answers 2xx within a second. */
export async function answersHealth(base: URL): Promise<boolean> {
  try {
    return (await fetch(new URL('/health', base), { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}
