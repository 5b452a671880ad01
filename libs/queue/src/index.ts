export { JOB_OPTIONS, QUEUE_NAMES, QUEUE_OF, jobIdOf, type InboundMessageJob, type JobName, type JobPayloads, type JobTrace, type QueueName } from './jobs';
export { JobQueues, QueueUnavailableError } from './job-queues';
export { createJobQueues } from './create-job-queues';
export { JOB_DONE, type JobOutcome, type JobAttempt } from './job-outcome';
export { startQueueWorker, type QueueWorkerDefinition, type JobRunOptions, type Chore, type JobFailure } from './queue-worker';
export { workerCommandConnection, workerConnection } from './redis-connections';
export { queueKeyPrefix } from './queue-key-prefix';
export { BatchCollector, type BatchLimits } from './batch-collector';
export { runWorkerProcess, type WorkerProcessDefinition, type RunningWorker } from './worker-process';
