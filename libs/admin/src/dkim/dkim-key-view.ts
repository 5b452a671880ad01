import { z } from 'zod';
import { DKIM_ALGORITHMS, dkimDnsName, dkimTxt, type DkimAlgorithm } from '@letterbox/dkim';

/** A TXT record to publish in a domain's DNS. */
export const txtRecordSchema = z.object({ dnsName: z.string(), txt: z.string() }).meta({ id: 'TxtRecord' });

/** A DKIM key as an administrator sees it: the record to publish, never the private key. */
export const dkimKeySchema = z
  .object({
    selector: z.string(),
    algorithm: z.enum(DKIM_ALGORITHMS),
    createdAt: z.string(),
    /** Set once retired: mail is no longer signed with it, and its record may be removed. */
    retiredAt: z.string().nullable(),
    dnsName: z.string(),
    txt: z.string(),
  })
  .meta({ id: 'DkimKey' });
export type DkimKeyView = z.infer<typeof dkimKeySchema>;

export interface DkimKeyRow {
  domain: string;
  selector: string;
  algorithm: DkimAlgorithm;
  public_key: string;
  created_at: Date;
  retired_at: Date | null;
}

/** The columns a DkimKeyRow is read from, `d` being the domain and `k` the key. */
export const DKIM_KEY_COLUMNS = 'd.name AS domain, k.selector, k.algorithm, k.public_key, k.created_at, k.retired_at';

export const dkimKeyView = (row: DkimKeyRow): DkimKeyView => ({
  selector: row.selector,
  algorithm: row.algorithm,
  createdAt: row.created_at.toISOString(),
  retiredAt: row.retired_at?.toISOString() ?? null,
  dnsName: dkimDnsName(row.selector, row.domain),
  txt: dkimTxt(row.algorithm, row.public_key),
});
