import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import { acceptanceBlobReferencesSql } from '@letterbox/ingest';
import { mailBlobReferencesSql } from '@letterbox/mail';
import { draftBlobReferencesSql, sendBlobReferencesSql } from '@letterbox/sending';
import type { BlobReferences } from '@letterbox/storage';

const REFERENCED = namedStatement(
  'blob-references',
  [mailBlobReferencesSql, sendBlobReferencesSql, draftBlobReferencesSql, acceptanceBlobReferencesSql]
    .map((references) => references('$1::text[]'))
    .join('\nUNION ALL\n'),
);

/**
 * Everything in the database that refers to a blob, each table asked in the SQL of the
 * library that owns it: mails (their EML), sends and drafts (their attachments) and
 * acceptances (the message of an ingest job not yet stored). The other jobs name a send
 * or a mail, not a blob. One statement, so one snapshot: a reference that moves from one
 * table to another (a draft sent: its send is recorded before the draft goes) is seen in
 * one of them.
 */
export class DatabaseBlobReferences implements BlobReferences {
  constructor(private readonly sql: Pool) {}

  async referenced(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const { rows } = await this.sql.query<{ key: string }>({ ...REFERENCED, values: [keys] });
    return new Set(rows.map((row) => row.key));
  }
}
