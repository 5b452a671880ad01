import { readFileSync } from 'node:fs';

/**
 * Prints the failing tests of a test run's output, each with the lines of its error, after
 * the project that printed it (Nx prefixes every line with the project's name). A test
 * runner reports a failure twice (where it happened and in its closing summary): once is kept.
 */
const ERROR_LINES = 16;
const MAX_LINES = 600;

const [file] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8')
  // eslint-disable-next-line no-control-regex -- the colours Nx and the test runner print
  .replace(/\x1b\[[0-9;]*m/g, '')
  .split('\n');
const seen = new Set<string>();
const report: string[] = [];
lines.forEach((line, index) => {
  if (!line.includes('✖ ') || line.includes('✖ failing tests:') || seen.has(line)) return;
  seen.add(line);
  const error = lines.slice(index + 1, index + 1 + ERROR_LINES);
  const end = error.findIndex((next) => /[✔✖ℹ▶] /.test(next));
  report.push(line, ...(end === -1 ? error : error.slice(0, end)), '');
});
process.stdout.write(`\n== ${seen.size} failing test(s); the whole output is in ${file}\n${report.slice(0, MAX_LINES).join('\n')}\n`);
