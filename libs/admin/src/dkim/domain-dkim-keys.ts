import type { Pool, PoolClient } from 'pg';
import type { AuditLog } from '@letterbox/audit';
import { inTransaction } from '@letterbox/db';
import { generateDkimKeyPair, type DkimKeyCipher, type DkimKeyPair } from '@letterbox/dkim';
import { recordAct, type AdminAct } from '../admin-act';
import { DkimKeyNotFoundError, UnknownDomainError } from '../admin-errors';
import { DKIM_KEY_COLUMNS, dkimKeyView, type DkimKeyRow, type DkimKeyView } from './dkim-key-view';

/** The selectors of a day's keys: `lb<yyyymmdd>`, then `-2`, `-3`… for another generation that day, and r or e for the algorithm. */
function selectorStem(now: Date, taken: Set<string>): string {
  const day = `lb${now.toISOString().slice(0, 10).replaceAll('-', '')}`;
  let stem = day;
  for (let generation = 2; taken.has(`${stem}r`) || taken.has(`${stem}e`); generation++) stem = `${day}-${generation}`;
  return stem;
}

/**
 * The DKIM keys of an office's domains. A generation makes an RSA-2048 and an Ed25519 key, each
 * under a new selector, so a key is replaced by publishing the new record before retiring the old
 * one: every active key signs, the older ones until an administrator retires them.
 */
export class DomainDkimKeys {
  constructor(
    private readonly sql: Pool,
    private readonly audit: AuditLog,
    private readonly cipher: DkimKeyCipher,
  ) {}

  /** The two new keys, with the records to publish. */
  async generate(act: AdminAct, domain: string): Promise<DkimKeyView[]> {
    const name = domain.trim().toLowerCase();
    // Generated before the transaction: no connection is held while the CPU works on an RSA key.
    const pairs = await Promise.all([generateDkimKeyPair('rsa-sha256'), generateDkimKeyPair('ed25519-sha256')]);
    return inTransaction(this.sql, async (client) => {
      const domainId = await this.lockDomain(client, act.officeId, name);
      const { rows: selectors } = await client.query<{ selector: string }>({ text: 'SELECT selector FROM dkim_keys WHERE domain_id = $1', values: [domainId] });
      const stem = selectorStem(new Date(), new Set(selectors.map((row) => row.selector)));
      const made = await Promise.all(pairs.map((pair) => this.insert(client, domainId, name, `${stem}${pair.algorithm === 'rsa-sha256' ? 'r' : 'e'}`, pair)));
      await recordAct(this.audit, client, act, 'dkim.generate', name, { selectors: made.map((key) => key.selector) });
      return made;
    });
  }

  /** Stops signing with the key; its row stays, shown as retired. */
  async retire(act: AdminAct, domain: string, selector: string): Promise<DkimKeyView> {
    const name = domain.trim().toLowerCase();
    return inTransaction(this.sql, async (client) => {
      const domainId = await this.lockDomain(client, act.officeId, name);
      const { rows } = await client.query<DkimKeyRow>({
        text: `UPDATE dkim_keys k SET retired_at = now() FROM domains d
                WHERE d.id = k.domain_id AND k.domain_id = $1 AND k.selector = $2 AND k.retired_at IS NULL
            RETURNING ${DKIM_KEY_COLUMNS}`,
        values: [domainId, selector],
      });
      if (!rows[0]) throw new DkimKeyNotFoundError(name, selector);
      await recordAct(this.audit, client, act, 'dkim.retire', name, { selector });
      return dkimKeyView(rows[0]);
    });
  }

  /** The domain's id, locked: two generations at once choose their selectors one after the other. */
  private async lockDomain(client: PoolClient, officeId: number, name: string): Promise<number> {
    const { rows } = await client.query<{ id: number }>({
      text: 'SELECT id FROM domains WHERE office_id = $1 AND name = $2 FOR UPDATE',
      values: [officeId, name],
    });
    if (!rows[0]) throw new UnknownDomainError(name);
    return rows[0].id;
  }

  private async insert(client: PoolClient, domainId: number, domain: string, selector: string, pair: DkimKeyPair): Promise<DkimKeyView> {
    const { rows } = await client.query<Omit<DkimKeyRow, 'domain'>>({
      text: `INSERT INTO dkim_keys (domain_id, selector, algorithm, public_key, private_key_encrypted) VALUES ($1, $2, $3, $4, $5)
             RETURNING selector, algorithm, public_key, created_at, retired_at`,
      values: [domainId, selector, pair.algorithm, pair.publicKey, this.cipher.encrypt(pair.privateKeyDer)],
    });
    return dkimKeyView({ ...rows[0], domain });
  }
}
