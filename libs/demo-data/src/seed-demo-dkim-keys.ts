import { AuditLog } from '@letterbox/audit';
import { commandLineAct, DomainDkimKeys, type DkimKeyView } from '@letterbox/admin';
import type { Database } from '@letterbox/db';
import { DkimKeyCipher } from '@letterbox/dkim';
import { DEMO_DOMAIN } from './seed-demo-office';

/**
 * DKIM keys for the demo domain, as its operator would make them (`npm run admin -- dkim`), so the
 * demo's outgoing mail is signed from the start and the demo DNS has records to serve. None when
 * the domain has an active key already.
 */
export async function seedDemoDkimKeys(db: Database, keyEncryptionKey: string): Promise<DkimKeyView[]> {
  const { rows } = await db.sql.query<{ office_id: number; active: boolean }>({
    text: `SELECT d.office_id, EXISTS (SELECT 1 FROM dkim_keys k WHERE k.domain_id = d.id AND k.retired_at IS NULL) AS active
             FROM domains d WHERE d.name = $1`,
    values: [DEMO_DOMAIN],
  });
  if (!rows[0] || rows[0].active) return [];
  const keys = new DomainDkimKeys(db.sql, new AuditLog(db.sql), DkimKeyCipher.fromSetting(keyEncryptionKey));
  return keys.generate(commandLineAct(rows[0].office_id), DEMO_DOMAIN);
}
