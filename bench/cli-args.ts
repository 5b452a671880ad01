import { parseArgs } from 'node:util';
import { loopbackBaseUrl } from './harness/loopback-url';
import { SCENARIOS } from './scenarios';
import type { Scenario } from './scenarios/scenario';

export interface BenchArgs {
  scenarios: readonly Scenario[];
  /** Overrides every scenario's own duration when given. */
  durationSeconds?: number;
  base: URL;
}

export const USAGE = `usage: node --require @swc-node/register bench/run.ts <scenario|all> [--duration seconds] [--base http://127.0.0.1:3000]
scenarios: ${SCENARIOS.map((scenario) => scenario.name).join(', ')}`;

export class UsageError extends Error {}

export function parseBenchArgs(argv: string[]): BenchArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { duration: { type: 'string' }, base: { type: 'string', default: 'http://127.0.0.1:3000' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [name, ...extra] = parsed.positionals;
  if (!name || extra.length > 0) throw new UsageError('give one scenario name, or all');
  const scenarios = name === 'all' ? SCENARIOS : SCENARIOS.filter((scenario) => scenario.name === name);
  if (scenarios.length === 0) throw new UsageError(`no scenario is called ${name}`);
  return { scenarios, durationSeconds: parseDuration(parsed.values.duration), base: parseBase(parsed.values.base) };
}

function parseBase(text: string): URL {
  try {
    return loopbackBaseUrl(text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function parseDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text);
  // Bounded: a typo must not load the machine for an hour.
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) throw new UsageError('--duration must be whole seconds, 1 to 600');
  return seconds;
}
