import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';

/** What a recipient's row can say; the others (queued, sent, failed) come from the send's own status. */
export type RecordedRecipientStatus = 'delayed' | 'bounced' | 'suppressed';

export interface RecipientStatusRow {
  address: string;
  status: RecordedRecipientStatus;
  diagnostic: string | null;
  at: Date;
}

/**
 * A bounce is final: a later delay report (DSNs can arrive out of order) does not undo it.
 * A repeated bounce keeps the first one's time.
 */
const RECORD = namedStatement(
  'send-recipient-status',
  `INSERT INTO outbound_send_recipients (send_id, address, status, diagnostic)
   SELECT $1, address, $3, $4 FROM unnest($2::text[]) AS address
   ON CONFLICT (send_id, address) DO UPDATE SET status = EXCLUDED.status, diagnostic = EXCLUDED.diagnostic, at = now()
     WHERE outbound_send_recipients.status = 'delayed'`,
);

const OF_SEND = namedStatement('send-recipient-statuses', 'SELECT address, status, diagnostic, at FROM outbound_send_recipients WHERE send_id = $1');

/** The rows of `outbound_send_recipients`: what became of a send's recipients, once something did. */
export class RecipientStatuses {
  constructor(private readonly sql: Pool) {}

  async record(sendId: number, addresses: string[], status: RecordedRecipientStatus, diagnostic: string | null): Promise<void> {
    if (addresses.length === 0) return;
    await this.sql.query({ ...RECORD, values: [sendId, addresses.map((address) => address.toLowerCase()), status, diagnostic?.slice(0, 1000) ?? null] });
  }

  async ofSend(sendId: number): Promise<RecipientStatusRow[]> {
    const { rows } = await this.sql.query<RecipientStatusRow>({ ...OF_SEND, values: [sendId] });
    return rows;
  }
}
