import { z } from 'zod';
import { conditionalSettings } from './common-settings';
import { demoPointingProblems } from './demo-defaults';
import { publicDefaultProblem } from './demo-secrets';
import { pairedSettings } from './tls-settings';

export class ConfigError extends Error {}

/**
 * Reads the settings an app declares from the environment, with their defaults.
 * A missing or malformed value (some are needed only with another setting's value, as the S3 ones
 * with STORAGE_BACKEND=s3), or a secret left at its public default or a setting pointing at the demo
 * (its mock relay, its MX name, loopback, the repository) outside the demo, throws
 * a ConfigError naming every variable at fault, so an app stops at start-up instead of failing
 * (or being forged into) on its first request.
 */
export function loadConfig<Shape extends z.ZodRawShape>(shape: Shape, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<Shape>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) {
    const data: Record<string, unknown> = result.data;
    const refused = [
      ...Object.entries(data).flatMap(([name, value]) => publicDefaultProblem(name, value, env) ?? []),
      ...demoPointingProblems(data, env),
      ...conditionalSettings
        .filter((rule) => data[rule.when] === rule.is)
        .flatMap((rule) => rule.requires.filter((name) => data[name] === undefined).map((name) => `${name}: required when ${rule.when}=${rule.is} (not set)`)),
      ...pairedSettings.flatMap(([first, second]) => unpaired(shape, data, first, second) ?? unpaired(shape, data, second, first) ?? []),
    ];
    if (refused.length === 0) return result.data;
    throw new ConfigError(`Invalid configuration:\n${refused.map((problem) => `  ${problem}`).join('\n')}`);
  }
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    const value = env[name];
    const shown = value === undefined ? 'not set' : `got ${JSON.stringify(value)}`;
    return `  ${name}: ${issue.message} (${shown})`;
  });
  throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}

/** The problem with `name` set without `partner`, when both are settings of the app. */
function unpaired(shape: z.ZodRawShape, data: Record<string, unknown>, name: string, partner: string): string | undefined {
  if (!(name in shape) || !(partner in shape) || data[name] === undefined || data[partner] !== undefined) return undefined;
  return `${partner}: required with ${name} (not set)`;
}
