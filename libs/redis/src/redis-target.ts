import type { Cluster, Redis } from 'ioredis';

/** Where a process's Redis is: the one at REDIS_URL, or the cluster of REDIS_CLUSTER_NODES (see redisConfig). */
export interface RedisTarget {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: Array<{ host: string; port: number }>;
}

/** A connection to either: the commands Letterbox sends behave alike on both. */
export type RedisConnection = Redis | Cluster;
