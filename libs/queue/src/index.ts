export { JOB_OPTIONS, QUEUE_OF, jobIdOf, type InboundMessageJob, type JobPayloads, type JobTrace, type QueueName } from './jobs';
export { JobQueues, QueueUnavailableError } from './job-queues';
export { createJobQueues } from './create-job-queues';
export { JOB_DONE, type JobOutcome, type JobAttempt } from './job-outcome';
export { startQueueWorker, type JobRunOptions } from './queue-worker';
export { workerCommandConnection, workerConnection } from './redis-connections';
export { queueKeyPrefix } from './queue-key-prefix';
export { BatchCollector, type BatchLimits } from './batch-collector';
export { runWorkerProcess, type RunningWorker } from './worker-process';
