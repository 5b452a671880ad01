import { createPrivateKey } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Pool } from 'pg';
import type { DkimKeyCipher } from './dkim-key-cipher';
import type { DkimAlgorithm } from './dkim-key-pair';
import type { DkimSigningKey } from './dkim-signer';

interface KeyRow {
  domain: string;
  selector: string;
  algorithm: DkimAlgorithm;
  private_key_encrypted: Buffer;
}

/** A new or retired key signs (or stops signing) within this long in every worker. */
const CACHE_MS = 60_000;
const CACHE_ENTRIES = 10_000;

/**
 * The keys a sender's mail is signed with: the active keys of the sender's address's domain when
 * it has some, else those of the office's own domain (the one it was made with); none when neither
 * has keys. Decrypted once and kept briefly, so a busy sender costs no query and no decryption per
 * message, and a retired key stops signing within a minute.
 */
export class DkimSigningKeys {
  private readonly cache = new LRUCache<string, Promise<DkimSigningKey[]>>({ max: CACHE_ENTRIES, ttl: CACHE_MS });

  constructor(
    private readonly sql: Pool,
    private readonly cipher: DkimKeyCipher,
  ) {}

  forSender(officeId: number, address: string): Promise<DkimSigningKey[]> {
    const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
    const cacheKey = `${officeId}:${domain}`;
    const cached = this.cache.get(cacheKey);
    if (cached) return cached;
    const loading = this.load(officeId, domain);
    this.cache.set(cacheKey, loading);
    // A failure (a wrong encryption key, the database away) is not remembered: the next message tries again.
    loading.catch(() => this.cache.delete(cacheKey));
    return loading;
  }

  private async load(officeId: number, domain: string): Promise<DkimSigningKey[]> {
    const { rows } = await this.sql.query<KeyRow & { own: boolean }>({
      text: `SELECT d.name AS domain, k.selector, k.algorithm, k.private_key_encrypted, d.name = $2 AS own
               FROM dkim_keys k JOIN domains d ON d.id = k.domain_id
              WHERE d.office_id = $1 AND k.retired_at IS NULL
                AND (d.name = $2 OR d.name = (SELECT domain FROM offices WHERE id = $1))
              ORDER BY k.created_at, k.algorithm`,
      values: [officeId, domain],
    });
    const own = rows.filter((row) => row.own);
    return (own.length > 0 ? own : rows).map((row) => ({
      domain: row.domain,
      selector: row.selector,
      algorithm: row.algorithm,
      privateKey: createPrivateKey({ key: this.cipher.decrypt(row.private_key_encrypted), format: 'der', type: 'pkcs8' }),
    }));
  }
}
