import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { HttpLoad, LoadResult } from './load-result';

const run = promisify(execFile);

/** wrk threads: one per core of the 2-core machine the figures are taken on. */
const WRK_THREADS = 2;
const REPORT_SCRIPT = path.join(__dirname, '../wrk/report.lua');

/**
 * Runs wrk, which reads multi-megabyte bodies far faster than autocannon can, and reads
 * the figures that wrk/report.lua prints when the run is done.
 */
export async function runWrk(load: HttpLoad): Promise<LoadResult> {
  if (load.requests) throw new Error('wrk loads GET one path; a target with its own requests needs autocannon');
  const headerArgs = Object.entries(load.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const { stdout } = await runWrkProcess(
    [
      `-t${WRK_THREADS}`,
      `-c${load.connections}`,
      `-d${load.durationSeconds}s`,
      '--timeout',
      '30s',
      '-s',
      REPORT_SCRIPT,
      ...headerArgs,
      new URL(load.paths[0], load.base).href,
    ],
    // Bounded even if wrk hangs: its run plus time for the slowest responses to finish.
    (load.durationSeconds + 40) * 1000,
  );
  return parseWrkReport(stdout, load.connections);
}

/** wrk with these arguments; a machine without it is told what to install. */
async function runWrkProcess(args: string[], timeoutMs: number): Promise<{ stdout: string }> {
  try {
    return await run('wrk', args, { timeout: timeoutMs, killSignal: 'SIGKILL' });
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') throw new Error('wrk is not installed: apt-get install wrk (Debian), then run the scenario again');
    throw error;
  }
}

interface WrkReport {
  durationUs: number;
  requests: number;
  bytes: number;
  non2xx: number;
  socketErrors: number;
  p50Us: number;
  p95Us: number;
  p99Us: number;
  maxUs: number;
}

export function parseWrkReport(stdout: string, connections: number): LoadResult {
  const line = stdout.split('\n').find((candidate) => candidate.startsWith('WRK_REPORT '));
  if (!line) throw new Error(`wrk printed no report; its output was:\n${stdout}`);
  const report = JSON.parse(line.slice('WRK_REPORT '.length)) as WrkReport;
  const seconds = report.durationUs / 1e6;
  return {
    tool: 'wrk',
    connections,
    durationSeconds: seconds,
    responses: report.requests,
    requestsPerSecond: (report.requests - report.non2xx) / seconds,
    latencyMs: { p50: report.p50Us / 1000, p95: report.p95Us / 1000, p99: report.p99Us / 1000, max: report.maxUs / 1000 },
    bytesPerSecond: report.bytes / seconds,
    non2xx: report.non2xx,
    socketErrors: report.socketErrors,
  };
}
