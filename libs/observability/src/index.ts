export { requestIdFrom, withRequestId, currentRequestId } from './request-context';
export { rootLogger, loggerFor, nameProcess, processName } from './logger';
export {
  httpRequestDuration,
  jobDuration,
  dbPoolAcquire,
  sseConnections,
  sendsTotal,
  inboundTotal,
  spamChecksTotal,
  pushTotal,
  watchPool,
  watchQueueDepth,
  unwatchQueueDepth,
  startProcessMetrics,
  metricsText,
  type PoolRole,
} from './metrics';
export { readiness, postgresCheck, redisCheck, storageCheck, type DependencyCheck } from './readiness';
export { startOpsServer, type OpsServer } from './ops-server';
export { exitOnStartupFailure } from './startup-failure';
export { reportConnectionErrors } from './connection-errors';
export { oncePerInterval } from './once-per-interval';
export { within } from './within';
