import path from 'node:path';
import { isDemo } from './demo-secrets';
import { repoRoot } from './repo-root';

/**
 * Settings whose defaults point at the demo on this machine: the mock SMTP relay, the demo's MX
 * name, the read API on loopback, blobs inside the repository. Outside the demo each one is refused,
 * naming what to set, so a production start never delivers into the mock or writes mail where a
 * `git clean` removes it.
 */
interface DemoPointingRule {
  /** The settings the rule reads; it applies only to an app that has all of them. */
  settings: string[];
  /** Why the values given point at the demo, or undefined when they do not. */
  problem(data: Record<string, unknown>): string | undefined;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

const isInside = (dir: string, root: string) => {
  const relative = path.relative(root, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

const demoPointingRules: DemoPointingRule[] = [
  {
    settings: ['SMTP_HOST', 'SMTP_PORT'],
    problem: ({ SMTP_HOST, SMTP_PORT }) =>
      LOOPBACK_HOSTS.has(String(SMTP_HOST)) && SMTP_PORT === 1025
        ? `SMTP_HOST/SMTP_PORT: ${String(SMTP_HOST)}:1025 is the demo's mock SMTP relay; set your relay (SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASSWORD) or a local MTA that delivers directly`
        : undefined,
  },
  {
    settings: ['INGEST_SMTP_HOSTNAME'],
    problem: ({ INGEST_SMTP_HOSTNAME }) =>
      String(INGEST_SMTP_HOSTNAME).endsWith('letterbox.test')
        ? `INGEST_SMTP_HOSTNAME: ${String(INGEST_SMTP_HOSTNAME)} is the demo's MX name; set the host name your MX record names`
        : undefined,
  },
  {
    settings: ['READ_API_PUBLIC_URL'],
    problem: ({ READ_API_PUBLIC_URL }) =>
      LOOPBACK_HOSTS.has(new URL(String(READ_API_PUBLIC_URL)).hostname)
        ? `READ_API_PUBLIC_URL: ${String(READ_API_PUBLIC_URL)} is this machine's loopback, which no recipient's read receipt can reach; set the read API's public URL`
        : undefined,
  },
  {
    settings: ['STORAGE_DIR', 'STORAGE_BACKEND'],
    problem: ({ STORAGE_DIR, STORAGE_BACKEND }) =>
      STORAGE_BACKEND === 'disk' && isInside(String(STORAGE_DIR), repoRoot)
        ? `STORAGE_DIR: ${String(STORAGE_DIR)} is inside the repository, where the demo keeps its mail; set a directory of its own (for instance /var/lib/letterbox/storage) or STORAGE_BACKEND=s3`
        : undefined,
  },
];

/** Outside the demo, what each setting of `data` that points at the demo is; none in the demo. */
export function demoPointingProblems(data: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  if (isDemo(env)) return [];
  return demoPointingRules.filter((rule) => rule.settings.every((name) => name in data)).flatMap((rule) => rule.problem(data) ?? []);
}
