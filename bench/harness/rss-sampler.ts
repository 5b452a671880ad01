import { processTree, residentBytes } from './process-tree';

const SAMPLE_INTERVAL_MS = 100;

export interface RssSampler {
  /** Stops sampling and returns the highest summed RSS seen, in bytes; later calls return the same. */
  stop(): number;
}

/**
 * Sums VmRSS over the process and its descendants every 100 ms and keeps the peak. The
 * tree is walked on every sample, so cluster workers that are replaced mid-run count.
 */
export function sampleTreeRss(rootPid: number): RssSampler {
  let peak = 0;
  let stopped = false;
  const sample = () => {
    const total = processTree(rootPid).reduce((sum, pid) => sum + residentBytes(pid), 0);
    peak = Math.max(peak, total);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_INTERVAL_MS);
  return {
    stop() {
      if (!stopped) {
        stopped = true;
        clearInterval(timer);
        sample();
      }
      return peak;
    },
  };
}
