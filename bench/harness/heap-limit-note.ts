import { nodeFlagsOf } from './process-tree';

/** Says whether the read API runs with the heap limit a scenario's memory figure assumes. */
export function heapLimitNote(serverPid: number, expectedMb: number): string {
  const limit = nodeFlagsOf(serverPid).match(/--max-old-space-size=(\d+)/)?.[1];
  if (Number(limit) === expectedMb) return `the read API runs with --max-old-space-size=${limit}, as this scenario assumes`;
  return (
    `WARNING: the read API runs ${limit ? `with --max-old-space-size=${limit}` : 'without a heap limit'}; ` +
    `start it with NODE_OPTIONS=--max-old-space-size=${expectedMb} for this scenario`
  );
}
