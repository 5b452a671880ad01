import type { Pool } from 'pg';
import { storableJson } from '@letterbox/mail';
import { BatchCollector, type JobPayloads, type JobQueues } from '@letterbox/queue';

type IngestPayload = JobPayloads['ingest-mail'];

/** How long an acceptance's job must have been in Redis before its absence means Redis lost it. */
const LOST_JOB_AGE = '1 minute';
/** An acceptance is withdrawn only while younger than this, half LOST_JOB_AGE: see withdraw. */
const WITHDRAWABLE_AGE = '30 seconds';
const SWEEP_BATCH = 500;

/**
 * Acceptances of incoming mail recorded in PostgreSQL before the sender is told "accepted",
 * so that what was acknowledged does not depend on Redis keeping its data (a Redis without
 * AOF, or one restarted empty). Acceptances arriving together are written with one
 * statement (group commit): a burst costs a few commits, not one per message. The ingest
 * worker forgets an acceptance once its mail is stored; the sweep queues again those whose
 * job is gone, under the same job id, so a job still in Redis is never added twice.
 */
export class InboundAcceptances {
  private readonly inserts: BatchCollector<IngestPayload, undefined>;

  constructor(
    private readonly sql: Pool,
    private readonly queues: JobQueues,
  ) {
    this.inserts = new BatchCollector(
      async (payloads) => {
        await this.sql.query({
          name: 'inbound-acceptances-record',
          text: `INSERT INTO inbound_acceptances (inbound_id, queue_prefix, payload)
                 SELECT (p->>'inboundId')::uuid, $2, p FROM jsonb_array_elements($1::jsonb) AS p`,
          values: [JSON.stringify(payloads, storableJson), this.queues.prefix],
        });
        return payloads.map(() => undefined);
      },
      { maxSize: 500, maxWaitMs: 2, maxInFlight: 2 },
    );
  }

  /** Resolves once the acceptance is committed (with those that arrived with it). */
  record(payload: IngestPayload): Promise<undefined> {
    return this.inserts.add(payload);
  }

  /** The mail of these acceptances is stored: nothing is left to sweep. */
  async forget(inboundIds: string[]): Promise<void> {
    if (inboundIds.length === 0) return;
    await this.sql.query({ name: 'inbound-acceptances-forget', text: 'DELETE FROM inbound_acceptances WHERE inbound_id = ANY($1::uuid[])', values: [inboundIds] });
  }

  /**
   * Takes back an acceptance whose job could not be queued at all (Redis unreachable): its
   * sender hears "try again later", so the message is not the sweep's to queue, and its
   * file may go. Only while it is younger than WITHDRAWABLE_AGE: the sweep reads only
   * acceptances older than LOST_JOB_AGE, so none can have read this one and be about to
   * queue it. An older one stays, and is stored once Redis is back (the sender's retry
   * then being a duplicate, stored once).
   */
  async withdraw(inboundId: string): Promise<void> {
    await this.sql.query({
      name: 'inbound-acceptances-withdraw',
      text: `DELETE FROM inbound_acceptances WHERE inbound_id = $1 AND accepted_at > now() - interval '${WITHDRAWABLE_AGE}'`,
      values: [inboundId],
    });
  }

  /** The spool files among these that a pending acceptance's message is in. */
  async spoolFilesReferenced(files: string[]): Promise<Set<string>> {
    const { rows } = await this.sql.query<{ file: string }>({
      name: 'inbound-acceptances-spool-files',
      text: `SELECT DISTINCT payload->'spooled'->>'file' AS file FROM inbound_acceptances WHERE payload->'spooled'->>'file' = ANY($1::text[])`,
      values: [files],
    });
    return new Set(rows.map((row) => row.file));
  }

  /** Queues again the acceptances whose job Redis no longer has; returns how many. */
  async sweep(): Promise<number> {
    const { rows } = await this.sql.query<{ payload: IngestPayload }>({
      name: 'inbound-acceptances-old',
      text: `SELECT payload FROM inbound_acceptances WHERE queue_prefix = $1 AND accepted_at < now() - interval '${LOST_JOB_AGE}'
              ORDER BY accepted_at LIMIT ${SWEEP_BATCH}`,
      values: [this.queues.prefix],
    });
    const lost: IngestPayload[] = [];
    for (const { payload } of rows) if (!(await this.queues.has('ingest-mail', payload))) lost.push(payload);
    if (lost.length > 0) await this.queues.enqueueAll('ingest-mail', lost);
    return lost.length;
  }
}

/**
 * The keys among `keys` (an SQL text[]) that an acceptance's message is stored under: its
 * job is pending, or failed and kept to be retried. Few rows (mail not stored yet), so
 * no index.
 */
export function acceptanceBlobReferencesSql(keys: string): string {
  return `SELECT payload->>'storageKey' AS key FROM inbound_acceptances WHERE payload->>'storageKey' = ANY(${keys})`;
}
