import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The pid and every descendant of it. Parents are read from /proc/<pid>/stat because
 * /proc/<pid>/task/<tid>/children needs a kernel option that not every kernel has.
 */
export function processTree(rootPid: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const pid of processIds()) {
    const parent = parentPid(pid);
    if (parent === undefined) continue;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), pid]);
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

/** Every process in /proc. */
export function processIds(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/** The Redis server listening on `port`, which names its address in its process title; undefined when none is seen. */
export function redisServerPid(port: number): number | undefined {
  return processIds().find((pid) => {
    const [title = ''] = commandLineOf(pid);
    return title.startsWith('redis-server') && title.trim().endsWith(`:${port}`);
  });
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

/** The arguments a process was started with, the program first; [] once it has exited. */
export function commandLineOf(pid: number): string[] {
  return (readProcFile(pid, 'cmdline') ?? '').split('\0').filter(Boolean);
}

/** The folder a process runs in, which its relative arguments are relative to. */
export function workingDirectoryOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

/** The command line and NODE_OPTIONS of a process, as one string to look for flags in. */
export function nodeFlagsOf(pid: number): string {
  const commandLine = commandLineOf(pid).join(' ');
  const nodeOptions = (readProcFile(pid, 'environ') ?? '').split('\0').find((entry) => entry.startsWith('NODE_OPTIONS='));
  return `${commandLine} ${nodeOptions?.slice('NODE_OPTIONS='.length) ?? ''}`;
}

/** The environment a process was started with (what it read its settings from), or {} once it has exited. */
export function processEnvironment(pid: number): Record<string, string> {
  const entries = (readProcFile(pid, 'environ') ?? '').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

let clockTicks: number | undefined;

/** CPU time (user + system) used so far by a process and its live descendants, in seconds. */
export function treeCpuSeconds(rootPid: number): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  const ticks = processTree(rootPid).reduce((sum, pid) => {
    const fields = afterCommandName(pid);
    // utime and stime are the 14th and 15th fields of stat, the 12th and 13th after the name.
    return fields ? sum + Number(fields[11]) + Number(fields[12]) : sum;
  }, 0);
  return ticks / clockTicks;
}

/** CPU time of a process's main thread alone (JavaScript runs there), in seconds. */
export function mainThreadCpuSeconds(pid: number): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  const fields = afterCommandName(pid, `task/${pid}/stat`);
  return fields ? (Number(fields[11]) + Number(fields[12])) / clockTicks : 0;
}

/**
 * The main thread's time on a core and time runnable but waiting for one, in seconds
 * (/proc/<pid>/task/<pid>/schedstat); both together near the wall time: it never waited for work.
 */
export function mainThreadSchedSeconds(pid: number): { running: number; waiting: number } {
  const [running, waiting] = (readProcFile(pid, `task/${pid}/schedstat`) ?? '0 0').split(' ').map(Number);
  return { running: running / 1e9, waiting: waiting / 1e9 };
}

/** Busy and total CPU time of the whole machine so far (all cores), from /proc/stat, in clock ticks. */
export function machineCpuTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  // cpu user nice system idle iowait irq softirq steal ...
  const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: total - values[3] - values[4], total };
}

function parentPid(pid: number): number | undefined {
  const fields = afterCommandName(pid);
  return fields ? Number(fields[1]) : undefined;
}

/** The fields of /proc/<pid>/stat after the command name, the state first. */
function afterCommandName(pid: number, file = 'stat'): string[] | undefined {
  const stat = readProcFile(pid, file);
  // The command name in parentheses may hold spaces, so fields are counted after its end.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** A /proc file, or undefined when the process has exited meanwhile. */
function readProcFile(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** What a process has read so far (/proc/<pid>/io): rchar counts every read call (files, sockets, pipes), readBytes what came from the disk rather than the page cache. */
export function readCounters(pid: number): { rchar: number; readBytes: number } {
  const fields = Object.fromEntries(
    (readProcFile(pid, 'io') ?? '')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf(':')), Number(line.slice(line.indexOf(':') + 1))]),
  );
  return { rchar: fields.rchar ?? 0, readBytes: fields.read_bytes ?? 0 };
}
