import { JOB_DONE, type JobOutcome } from '@letterbox/queue';
import type { InboundAcceptances } from './inbound-acceptances';
import type { IngestMessage } from './pipeline/ingest-batch';

/**
 * Runs an acceptance group's job: stores its messages together, and splits out those that
 * fail into jobs of their own, retried with their own backoff, so one bad message neither
 * fails nor delays the rest of its group. Only when every message failed (storage or the
 * database down, most likely) is the group's job retried as a whole.
 */
export async function ingestGroup(
  messages: IngestMessage[],
  storeOne: (message: IngestMessage) => Promise<unknown>,
  acceptances: InboundAcceptances,
  reportFailure: (message: IngestMessage, error: unknown) => void,
): Promise<JobOutcome<never>> {
  const results = await Promise.allSettled(messages.map(storeOne));
  const failures = results.flatMap((result, index) => (result.status === 'rejected' ? [{ message: messages[index], error: result.reason as unknown }] : []));
  if (failures.length === 0) return JOB_DONE;
  if (failures.length === messages.length) {
    const { error } = failures[0];
    return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
  }
  for (const { message, error } of failures) reportFailure(message, error);
  await acceptances.splitOut(failures.map(({ message }) => message));
  return JOB_DONE;
}
