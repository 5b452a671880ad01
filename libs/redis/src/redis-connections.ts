import IORedis, { Cluster, type RedisOptions } from 'ioredis';
import { reportConnectionErrors } from '@letterbox/observability';
import type { RedisConnection, RedisTarget } from './redis-target';

/** What a connection is for, which decides how it behaves while Redis is away. */
export type ConnectionProfile = 'fail-fast' | 'worker' | 'worker-commands' | 'subscriber';

const PROFILES: Record<ConnectionProfile, RedisOptions> = {
  // A command fails at once while Redis is unreachable instead of waiting in ioredis's offline queue,
  // so a request answers (and leaves its work to a sweeper) instead of hanging.
  'fail-fast': { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 },
  // BullMQ's blocking commands need retries without limit.
  worker: { maxRetriesPerRequest: null },
  // A worker's own commands wait for Redis as the worker does, and those issued together leave in one write
  // (auto-pipelining): a batch's hundreds of commands cost a few writes, not one each. Not for BullMQ's
  // blocking commands, which would hold up the commands pipelined behind them.
  'worker-commands': { maxRetriesPerRequest: null, enableAutoPipelining: true },
  // Not resubscribed by itself after a reconnect: its owner learns that it missed messages, and subscribes again.
  subscriber: { enableOfflineQueue: false, autoResubscribe: false, maxRetriesPerRequest: 1, connectTimeout: 2000 },
};

/**
 * The one way a Letterbox process connects to Redis: a connection to the Redis of REDIS_URL, or an ioredis
 * Cluster over the nodes of REDIS_CLUSTER_NODES, with the profile's behaviour either way. Its errors are
 * logged as `what`; `name` shows in CLIENT LIST.
 */
export function redisConnection(target: RedisTarget, profile: ConnectionProfile, what: string, name?: string): RedisConnection {
  const { enableOfflineQueue = true, ...options } = { ...PROFILES[profile], connectionName: name };
  const redis = target.REDIS_CLUSTER_NODES
    ? // Only the cluster as a whole refuses commands while it is not ready: a node's connection is made on its
      // first command, which an offline queue of the node's own must hold until then.
      new Cluster(target.REDIS_CLUSTER_NODES, {
        enableOfflineQueue,
        enableAutoPipelining: options.enableAutoPipelining,
        redisOptions: { ...credentialsOf(target.REDIS_URL), ...options },
      })
    : new IORedis(target.REDIS_URL, { ...options, enableOfflineQueue });
  reportConnectionErrors(redis, what);
  return redis;
}

/**
 * For commands a request waits on (adding jobs, publishing events, reading their history): a command fails at
 * once while Redis is unreachable, so the request answers (and leaves its work to a sweeper) instead of hanging.
 */
export function failFastConnection(target: RedisTarget, what: string): RedisConnection {
  return redisConnection(target, 'fail-fast', what);
}

/** A cluster's nodes are named by REDIS_CLUSTER_NODES, but signed in to (and encrypted) as REDIS_URL says. */
function credentialsOf(url: string): RedisOptions {
  const { username, password, protocol } = new URL(url);
  return {
    username: username ? decodeURIComponent(username) : undefined,
    password: password ? decodeURIComponent(password) : undefined,
    tls: protocol === 'rediss:' ? {} : undefined,
  };
}
