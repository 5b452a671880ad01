import { parseArgs } from 'node:util';
import { loopbackBaseUrl } from './harness/loopback-url';
import { SCENARIO_GROUPS, SCENARIOS } from './scenarios';
import type { Scenario } from './scenarios/scenario';

export interface BenchArgs {
  scenarios: readonly Scenario[];
  /** Overrides every load scenario's own duration when given. */
  durationSeconds?: number;
  /** Overrides every load scenario's own connection count when given, e.g. to see latency below saturation. */
  connections?: number;
  /** The read API, which also signs users in. */
  base: URL;
  /** The send API, for the send scenarios. */
  sendBase: URL;
  /** Settings added to every delivery worker the harness starts (delivery-e2e), e.g. to try a tuning. */
  workerEnv: Record<string, string>;
  /** Another build's dist/ whose delivery worker the delivery procedures run instead of this one's: a baseline. */
  workerBuild?: string;
}

export const USAGE = `usage: node --require @swc-node/register bench/run.ts <scenario|${Object.keys(SCENARIO_GROUPS).join('|')}> [--duration seconds] [--connections n] [--base http://127.0.0.1:3000] [--send-base http://127.0.0.1:3001] [--worker-env NAME=value ...] [--worker-build path/to/dist]
scenarios: ${SCENARIOS.map((scenario) => scenario.name).join(', ')}
groups: ${Object.entries(SCENARIO_GROUPS)
  .map(([group, scenarios]) => `${group} (${group === 'all' ? 'every scenario' : scenarios.map((scenario) => scenario.name).join(', ')})`)
  .join('; ')}`;

export class UsageError extends Error {}

export function parseBenchArgs(argv: string[]): BenchArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        duration: { type: 'string' },
        connections: { type: 'string' },
        base: { type: 'string', default: 'http://127.0.0.1:3000' },
        'send-base': { type: 'string', default: 'http://127.0.0.1:3001' },
        'worker-env': { type: 'string', multiple: true, default: [] },
        'worker-build': { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [name, ...extra] = parsed.positionals;
  if (!name || extra.length > 0) throw new UsageError(`give one scenario name, or one of ${Object.keys(SCENARIO_GROUPS).join(', ')}`);
  const scenarios = SCENARIO_GROUPS[name] ?? SCENARIOS.filter((scenario) => scenario.name === name);
  if (scenarios.length === 0) throw new UsageError(`no scenario is called ${name}`);
  return {
    scenarios,
    durationSeconds: parseDuration(parsed.values.duration),
    connections: parseConnections(parsed.values.connections),
    base: parseBase('--base', parsed.values.base),
    sendBase: parseBase('--send-base', parsed.values['send-base']),
    workerEnv: parseWorkerEnv(parsed.values['worker-env']),
    workerBuild: parsed.values['worker-build'],
  };
}

function parseBase(option: string, text: string): URL {
  try {
    return loopbackBaseUrl(text);
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^--base/, option));
  }
}

function parseDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text);
  // Bounded: a typo must not load the machine for an hour.
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) throw new UsageError('--duration must be whole seconds, 1 to 600');
  return seconds;
}

function parseConnections(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const connections = Number(text);
  if (!Number.isInteger(connections) || connections < 1 || connections > 2000) throw new UsageError('--connections must be 1 to 2000');
  return connections;
}

/**
 * Worker settings a run may change (concurrency and connections only in the tuned cases);
 * the harness sets where the worker sends and which queue it reads.
 */
const WORKER_SETTINGS =
  /^(DELIVERY_CONCURRENCY|SMTP_MAX_CONNECTIONS|SENDER_RATE_PER_SECOND|SENDER_BURST|DATABASE_POOL_SIZE|DELIVERY_LOCK_MS|OUTBOX_SWEEP_MS|UV_THREADPOOL_SIZE|NODE_OPTIONS)$/;

function parseWorkerEnv(entries: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of entries) {
    const [name, ...rest] = entry.split('=');
    if (!WORKER_SETTINGS.test(name) || rest.length === 0) {
      throw new UsageError(
        `--worker-env ${entry}: give NAME=value, NAME one of ${WORKER_SETTINGS.source
          .replace(/[\^$()]/g, '')
          .split('|')
          .join(', ')}`,
      );
    }
    env[name] = rest.join('=');
  }
  return env;
}
