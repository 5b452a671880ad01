/** The UIDs of ImapMessages.uidRuns' runs, one by one: what the tests compare. */
export const uidsOf = (runs: [number, number][]): number[] =>
  runs.flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, index) => first + index));
