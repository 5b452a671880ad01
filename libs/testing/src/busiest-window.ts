/** The most of `times` (ms since the epoch) within any window of `windowMs`: [count, start of that window]. */
export function busiestWindow(times: number[], windowMs: number): [number, number] {
  const sorted = [...times].sort((a, b) => a - b);
  let best: [number, number] = [0, 0];
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= windowMs) start++;
    if (end - start + 1 > best[0]) best = [end - start + 1, sorted[start]];
  }
  return best;
}
