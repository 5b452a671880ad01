import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import { storableJson } from '@letterbox/mail';
import { BatchCollector, QueueUnavailableError, type InboundMessageJob, type JobQueues, type JobTrace } from '@letterbox/queue';

/** How long an acceptance's job must have been in Redis before its absence means Redis lost it. */
const LOST_JOB_AGE = '1 minute';
/** An acceptance is withdrawn only while younger than this, half LOST_JOB_AGE: see withdraw. */
const WITHDRAWABLE_AGE = '30 seconds';
const SWEEP_BATCH = 500;

const RECORD = namedStatement(
  'inbound-acceptances-record',
  `INSERT INTO inbound_acceptances (inbound_id, queue_prefix, payload, group_id)
   SELECT (p->>'inboundId')::uuid, $2, p - 'requestId', $3 FROM jsonb_array_elements($1::jsonb) AS p`,
);
const FORGET = namedStatement('inbound-acceptances-forget', 'DELETE FROM inbound_acceptances WHERE inbound_id = ANY($1::uuid[])');
const WITHDRAW = namedStatement(
  'inbound-acceptances-withdraw',
  `DELETE FROM inbound_acceptances WHERE inbound_id = ANY($1::uuid[]) AND accepted_at > now() - interval '${WITHDRAWABLE_AGE}'`,
);
const SPLIT_OUT = namedStatement('inbound-acceptances-split-out', 'UPDATE inbound_acceptances SET group_id = NULL WHERE inbound_id = ANY($1::uuid[])');
const SPOOL_FILES = namedStatement(
  'inbound-acceptances-spool-files',
  `SELECT DISTINCT payload->'spooled'->>'file' AS file FROM inbound_acceptances WHERE payload->'spooled'->>'file' = ANY($1::text[])`,
);
const OLD = namedStatement(
  'inbound-acceptances-old',
  `SELECT payload, group_id FROM inbound_acceptances WHERE queue_prefix = $1 AND accepted_at < now() - interval '${LOST_JOB_AGE}'
    ORDER BY accepted_at LIMIT ${SWEEP_BATCH}`,
);

/**
 * Acceptances of incoming mail recorded in PostgreSQL before the sender is told "accepted",
 * so that what was acknowledged does not depend on Redis keeping its data (a Redis without
 * AOF, or one restarted empty). Acceptances arriving together are a group: written with one
 * statement (group commit) and queued as one job, so a burst costs a few commits and a few
 * jobs, not one of each per message. The ingest worker forgets an acceptance once its mail
 * is stored; the sweep queues again those whose job is gone, so a job still in Redis is
 * never added twice.
 */
export class InboundAcceptances {
  private readonly groups: BatchCollector<InboundMessageJob & JobTrace, undefined>;

  constructor(
    private readonly sql: Pool,
    private readonly queues: JobQueues,
  ) {
    this.groups = new BatchCollector(
      async (messages) => {
        await this.recordAndQueue(messages);
        return messages.map(() => undefined);
      },
      { maxSize: 500, maxWaitMs: 2, maxInFlight: 2 },
    );
  }

  /**
   * Resolves once the acceptance is committed and its group's job queued. Fails with
   * QueueUnavailableError when Redis could not take the job: the acceptance is then
   * withdrawn if it still may be (see withdraw), and its sender is to try again later.
   */
  accept(message: InboundMessageJob & JobTrace): Promise<undefined> {
    return this.groups.add(message);
  }

  private async recordAndQueue(messages: Array<InboundMessageJob & JobTrace>): Promise<void> {
    const groupId = randomUUID();
    await this.sql.query({ ...RECORD, values: [JSON.stringify(messages, storableJson), this.queues.prefix, groupId] });
    try {
      await this.queues.enqueue('ingest-mails', { groupId, messages, requestId: `inbound-group-${groupId}` });
    } catch (error) {
      // An acceptance not withdrawn keeps its message and is queued by the sweep once Redis is back.
      if (error instanceof QueueUnavailableError) await this.withdraw(messages.map((message) => message.inboundId)).catch(() => undefined);
      throw error;
    }
  }

  /** The mail of these acceptances is stored: nothing is left to sweep. */
  async forget(inboundIds: string[]): Promise<void> {
    if (inboundIds.length === 0) return;
    await this.sql.query({ ...FORGET, values: [inboundIds] });
  }

  /**
   * Takes back an acceptance whose job could not be queued at all (Redis unreachable): its
   * sender hears "try again later", so the message is not the sweep's to queue, and its
   * file may go. Only while it is younger than WITHDRAWABLE_AGE: the sweep reads only
   * acceptances older than LOST_JOB_AGE, so none can have read this one and be about to
   * queue it. An older one stays, and is stored once Redis is back (the sender's retry
   * then being a duplicate, stored once).
   */
  private async withdraw(inboundIds: string[]): Promise<void> {
    await this.sql.query({ ...WITHDRAW, values: [inboundIds] });
  }

  /**
   * Queues these messages each as a job of its own, out of their group's: the group's job
   * ends without them (they failed in it), and the sweep looks for their own jobs from now on.
   */
  async splitOut(messages: Array<InboundMessageJob & JobTrace>): Promise<void> {
    if (messages.length === 0) return;
    await this.sql.query({ ...SPLIT_OUT, values: [messages.map((message) => message.inboundId)] });
    await this.queues.enqueueAll('ingest-mail', messages);
  }

  /** The spool files among these that a pending acceptance's message is in. */
  async spoolFilesReferenced(files: string[]): Promise<Set<string>> {
    const { rows } = await this.sql.query<{ file: string }>({ ...SPOOL_FILES, values: [files] });
    return new Set(rows.map((row) => row.file));
  }

  /**
   * Queues again the acceptances whose job Redis no longer has, each as a job of its own
   * (a group's job is not made again: the sweep may hold only part of the group); returns how many.
   */
  async sweep(): Promise<number> {
    const { rows } = await this.sql.query<{ payload: InboundMessageJob; group_id: string | null }>({ ...OLD, values: [this.queues.prefix] });
    const groupsKept = new Map<string, boolean>();
    const lost: InboundMessageJob[] = [];
    for (const { payload, group_id: groupId } of rows) {
      if (groupId === null) {
        if (!(await this.queues.has('ingest-mail', payload))) lost.push(payload);
        continue;
      }
      if (!groupsKept.has(groupId)) groupsKept.set(groupId, await this.queues.has('ingest-mails', { groupId, messages: [] }));
      if (!groupsKept.get(groupId)) lost.push(payload);
    }
    await this.splitOut(lost);
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
