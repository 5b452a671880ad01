import { loggerFor } from './logger';
import { within } from './within';

/** Resolves when what it checks answers; rejects, with the cause for the log, when it does not. */
export type DependencyCheck = () => Promise<void>;

/** The body of a readiness answer, in the form @nestjs/terminus gives and probes read. */
export interface ReadinessReport {
  status: 'ok' | 'error';
  info: Record<string, { status: 'up' }>;
  error: Record<string, { status: 'down'; message: string }>;
  details: Record<string, { status: 'up' } | { status: 'down'; message: string }>;
}

const CHECK_TIMEOUT_MS = 2000;
const logger = loggerFor('health');

/** Runs every check at once, each within two seconds. The causes (hosts, users) go to the log, never to the caller. */
export async function readiness(checks: Record<string, DependencyCheck>): Promise<ReadinessReport> {
  const report: ReadinessReport = { status: 'ok', info: {}, error: {}, details: {} };
  await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await within(check(), CHECK_TIMEOUT_MS);
        report.info[name] = report.details[name] = { status: 'up' };
      } catch (error) {
        logger.warn({ dependency: name, err: error }, `${name} check failed`);
        report.status = 'error';
        report.error[name] = report.details[name] = { status: 'down', message: `${name}: unavailable` };
      }
    }),
  );
  return report;
}

export const postgresCheck =
  (sql: { query(text: string): Promise<unknown> }): DependencyCheck =>
  async () => {
    await sql.query('SELECT 1');
  };

export const redisCheck =
  (redis: { ping(): Promise<string> }): DependencyCheck =>
  async () => {
    const answer = await redis.ping();
    if (answer !== 'PONG') throw new Error(`PING answered ${answer}`);
  };

/** Storage answers when it can be written to: its folder on disk, its bucket on S3 (BlobStore.check). */
export const storageCheck =
  (storage: { check(): Promise<void> }): DependencyCheck =>
  () =>
    storage.check();
