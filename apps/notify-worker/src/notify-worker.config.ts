import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { databaseConfig, loadConfig, opsConfig, redisConfig } from '@letterbox/config';
import type { FcmTarget } from '@letterbox/push';

const count = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

/** What firebase-admin's `cert()` needs of a service-account key file. */
function isServiceAccountFile(file: string): boolean {
  try {
    const key = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return ['project_id', 'client_email', 'private_key'].every((field) => typeof key[field] === 'string' && key[field] !== '');
  } catch {
    return false;
  }
}

export const notifyWorkerSettings = {
  ...databaseConfig,
  ...redisConfig,
  ...opsConfig(9103),
  /** Notifications (jobs) in flight per process; each sends to all of one user's devices at once. */
  NOTIFY_CONCURRENCY: count(100, 5000),
  /** Connections to FCM, shared by every send of the process: throughput ≈ connections ÷ FCM's latency. */
  FCM_MAX_CONNECTIONS: count(500, 5000),
  /** A mock FCM (the mock providers, http://127.0.0.1:3005) instead of Google's; then no credentials are needed. */
  FCM_MOCK_URL: z
    .url()
    .refine((url) => url.startsWith('http://'), 'must be an http:// URL: the mock FCM is reached over plain HTTP')
    .transform((url) => new URL(url))
    .optional(),
  /** Google's project id; by default the service account's (or letterbox-local on a mock). */
  FCM_PROJECT_ID: z
    .string()
    .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, 'must be a Google Cloud project id: 6 to 30 lower-case letters, digits or hyphens')
    .optional(),
  /** The service account's JSON key file, as Google's libraries read it. */
  GOOGLE_APPLICATION_CREDENTIALS: z
    .string()
    .min(1)
    .refine(isServiceAccountFile, 'must be a readable service-account JSON key file (with project_id, client_email and private_key)')
    .optional(),
};

export function loadNotifyWorkerConfig(env: NodeJS.ProcessEnv = process.env) {
  const { FCM_MOCK_URL, FCM_PROJECT_ID, GOOGLE_APPLICATION_CREDENTIALS, FCM_MAX_CONNECTIONS, ...settings } = loadConfig(notifyWorkerSettings, env);
  // Neither: push is off (an office without a Firebase project); the worker still takes the jobs, sending nothing.
  let fcm: FcmTarget | undefined;
  if (FCM_MOCK_URL) {
    fcm = { kind: 'mock', url: FCM_MOCK_URL, projectId: FCM_PROJECT_ID ?? 'letterbox-local', maxConnections: FCM_MAX_CONNECTIONS };
  } else if (GOOGLE_APPLICATION_CREDENTIALS) {
    fcm = { kind: 'google', serviceAccountFile: GOOGLE_APPLICATION_CREDENTIALS, projectId: FCM_PROJECT_ID, maxConnections: FCM_MAX_CONNECTIONS };
  }
  return { ...settings, fcm };
}

export type NotifyWorkerConfig = ReturnType<typeof loadNotifyWorkerConfig>;
