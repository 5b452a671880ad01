import { ensureReadReplica, ensureRedisCluster, startTestS3 } from '@letterbox/testing';

/** What every process of the platform shares: PostgreSQL, the object store, and Redis. */
export interface SharedServices {
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * One Redis and the primary alone; or, as a deployment across machines runs, a Redis Cluster
 * and a streaming replica beside the primary for the reads that tolerate its lag.
 */
export async function sharedServices(spread: boolean): Promise<SharedServices> {
  const s3 = await startTestS3();
  const spreadEnv: Record<string, string> = spread ? { REDIS_CLUSTER_NODES: ensureRedisCluster(), DATABASE_READ_URL: await ensureReadReplica() } : {};
  return { env: { ...s3.env, ...spreadEnv }, close: () => s3.close() };
}
