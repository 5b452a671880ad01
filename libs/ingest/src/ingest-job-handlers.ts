import type { Logger } from 'pino';
import { withRequestId } from '@letterbox/observability';
import { BatchCollector, JOB_DONE, type BatchLimits, type JobOutcome, type JobPayloads } from '@letterbox/queue';
import type { InboundAcceptances } from './inbound-acceptances';
import { ingestGroup } from './ingest-group';
import type { IngestMessage, IngestOutcome } from './pipeline/ingest-batch';
import type { IngestPipeline } from './pipeline/ingest-pipeline';

export interface IngestJobOptions {
  pipeline: IngestPipeline;
  acceptances: InboundAcceptances;
  /** How messages are gathered into a batch: at most so many, waiting at most so long after the first. */
  batches: Pick<BatchLimits, 'maxSize' | 'maxWaitMs'>;
  logger: Logger;
}

/** The handlers of the ingest jobs, as a worker of the mail-ingest queue runs them. */
export interface IngestJobHandlers {
  'ingest-mail': (message: IngestMessage) => Promise<JobOutcome<never>>;
  'ingest-mails': (group: JobPayloads['ingest-mails']) => Promise<JobOutcome<never>>;
}

/**
 * Runs the ingest jobs through the pipeline: their messages, whichever job brought them,
 * are gathered into batches, and a batch's acceptances are forgotten once its mail is
 * stored. A message that fails fails its own job; in a group's job, it is split out into a
 * job of its own, and the rest of the group is done.
 */
export function ingestJobHandlers({ pipeline, acceptances, batches: limits, logger }: IngestJobOptions): IngestJobHandlers {
  const batches = new BatchCollector<IngestMessage, IngestOutcome>(
    async (messages) => {
      const outcomes = await pipeline.run(messages);
      await acceptances.forget(messages.filter((_, index) => !(outcomes[index] instanceof Error)).map((message) => message.inboundId));
      return outcomes;
    },
    // One gathers while the other is written; a group's job brings up to hundreds of messages at once.
    { ...limits, maxInFlight: 2 },
  );
  const ingestOne = (message: IngestMessage) => batches.add(message);
  return {
    'ingest-mail': async (message) => {
      await ingestOne(message);
      return JOB_DONE;
    },
    'ingest-mails': ({ messages }) =>
      ingestGroup(messages, ingestOne, acceptances, (message, error) =>
        withRequestId(message.requestId ?? message.inboundId, () =>
          logger.warn({ inboundId: message.inboundId, err: error }, `${message.inboundId} failed in its group; it is retried in a job of its own`),
        ),
      ),
  };
}
