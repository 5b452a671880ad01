import { z } from 'zod';

export class ConfigError extends Error {}

/**
 * Reads the settings an app declares from the environment, with their defaults.
 * A missing or malformed value throws a ConfigError naming every variable at fault,
 * so an app stops at start-up instead of failing on its first request.
 */
export function loadConfig<Shape extends z.ZodRawShape>(
  shape: Shape,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<Shape>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    const value = env[name];
    const shown = value === undefined ? 'not set' : `got ${JSON.stringify(value)}`;
    return `  ${name}: ${issue.message} (${shown})`;
  });
  throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}
