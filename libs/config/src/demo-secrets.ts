import { z } from 'zod';

/** Defaults that are printed in the README and the code: anyone can read them, so only the demo may run on them. */
const publicDefaults = new Set<string>();

/** A secret setting whose default is public: the demo starts without setting it, nothing else does. */
export function demoSecret(schema: z.ZodString, publicDefault: string) {
  publicDefaults.add(publicDefault);
  return schema.default(publicDefault);
}

/**
 * Why the settings given may not run on a public default, or undefined when they may: only the demo
 * (`LETTERBOX_DEMO=true`, as `npm start` and `npm test` set it), and never with NODE_ENV=production.
 */
export function publicDefaultProblem(name: string, value: unknown, env: NodeJS.ProcessEnv): string | undefined {
  if (typeof value !== 'string' || !publicDefaults.has(value)) return undefined;
  if (isDemo(env)) return undefined;
  const where = env.NODE_ENV === 'production' ? 'NODE_ENV is production' : 'this is not the demo (LETTERBOX_DEMO=true)';
  return `${name}: the public demo default, and ${where}; set a secret of your own (for instance: openssl rand -base64 32)`;
}

/** The demo: `LETTERBOX_DEMO=true` (as `npm start` and `npm test` set it), never with NODE_ENV=production. */
export function isDemo(env: NodeJS.ProcessEnv): boolean {
  return env.NODE_ENV !== 'production' && env.LETTERBOX_DEMO === 'true';
}
