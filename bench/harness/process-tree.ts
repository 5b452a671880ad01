import { readdirSync, readFileSync } from 'node:fs';

/**
 * The pid and every descendant of it. Parents are read from /proc/<pid>/stat because
 * /proc/<pid>/task/<tid>/children needs a kernel option that not every kernel has.
 */
export function processTree(rootPid: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentPid(Number(entry));
    if (parent === undefined) continue;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    tree.push(pid);
    pending.push(...(childrenOf.get(pid) ?? []));
  }
  return tree;
}

/** Resident memory of one process in bytes, or 0 once it has exited. */
export function residentBytes(pid: number): number {
  const status = readProcFile(pid, 'status');
  const kilobytes = status?.match(/^VmRSS:\s+(\d+) kB$/m)?.[1];
  return kilobytes ? Number(kilobytes) * 1024 : 0;
}

/**
 * The process to watch for a pid that /health reported: a cluster worker's primary,
 * whose tree holds every worker, or the pid itself. Node marks cluster workers with
 * NODE_UNIQUE_ID in their environment.
 */
export function serverRootPid(pid: number): number {
  const environment = readProcFile(pid, 'environ') ?? '';
  const isClusterWorker = environment.split('\0').some((entry) => entry.startsWith('NODE_UNIQUE_ID='));
  return isClusterWorker ? (parentPid(pid) ?? pid) : pid;
}

/** The command line and NODE_OPTIONS of a process, as one string to look for flags in. */
export function nodeFlagsOf(pid: number): string {
  const commandLine = (readProcFile(pid, 'cmdline') ?? '').split('\0').join(' ');
  const nodeOptions = (readProcFile(pid, 'environ') ?? '')
    .split('\0')
    .find((entry) => entry.startsWith('NODE_OPTIONS='));
  return `${commandLine} ${nodeOptions?.slice('NODE_OPTIONS='.length) ?? ''}`;
}

function parentPid(pid: number): number | undefined {
  const stat = readProcFile(pid, 'stat');
  // The command name in parentheses may hold spaces, so fields are counted after its end.
  const afterName = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  return afterName ? Number(afterName[1]) : undefined;
}

/** A /proc file, or undefined when the process has exited meanwhile. */
function readProcFile(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}
