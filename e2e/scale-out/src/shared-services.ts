import { ensureRedisCluster, startTestS3 } from '@letterbox/testing';

/** What every process of the platform shares besides PostgreSQL: the object store, and Redis (one, or a cluster). */
export interface SharedServices {
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function sharedServices(onCluster: boolean): Promise<SharedServices> {
  const s3 = await startTestS3();
  return {
    env: { ...s3.env, ...(onCluster ? { REDIS_CLUSTER_NODES: ensureRedisCluster() } : {}) },
    close: () => s3.close(),
  };
}
