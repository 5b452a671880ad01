export { JOB_OPTIONS, QUEUE_NAMES, QUEUE_OF, jobIdOf, type JobName, type JobPayloads, type JobTrace, type QueueName } from './jobs';
export { JobQueues, QueueUnavailableError } from './job-queues';
export { startJobWorker, assertOneHandlerPerJob, isFinalAttempt, type JobHandler, type QueueHandlers } from './job-worker';
export { producerConnection, workerConnection } from './redis-connections';
export { queueKeyPrefix } from './queue-key-prefix';
export { SenderRateLimit } from './sender-rate-limit';
export { BatchCollector, type BatchLimits } from './batch-collector';
export { runWorkerProcess, type WorkerProcessDefinition, type RunningWorker } from './worker-process';
