import { namedStatement, type Database } from '@letterbox/db';
import { envelopeFieldsOfHeaderBlock, MAX_HEADER_BLOCK, scanLayout, type MailLayout, type MimePart } from '@letterbox/mime';
import type { BlobStore } from '@letterbox/storage';
import { mapConcurrently } from './map-concurrently';
import { storableJson } from './storable-text';
import { MailNotFoundError } from '../mail-errors';
import type { SectionedMail } from '../read/mail-sections';

const MAIL_LAYOUT = namedStatement(
  'mail-layout-of',
  'SELECT storage_key AS "storageKey", layout FROM mails WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
);
const STORE_TREE = namedStatement('mail-store-mime-tree', `UPDATE mails SET layout = jsonb_set(layout, '{tree}', $2::jsonb) WHERE id = $1`);
const STORE_ENVELOPES = namedStatement(
  'mail-store-root-envelopes',
  `UPDATE mails m SET layout = jsonb_set(m.layout, '{tree,envelope}', e.envelope)
     FROM unnest($1::bigint[], $2::jsonb[]) AS e(id, envelope) WHERE m.id = e.id`,
);
/** Header blocks read at once when a FETCH's chunk of older mail needs its envelopes recorded. */
const HEADER_READS = 8;

/** A mail row's fields that its MIME tree comes from. */
export interface MailWithLayout {
  id: number;
  storageKey: string;
  layout: MailLayout;
}

/**
 * Mail stored before the layout recorded the MIME tree has none: the first FETCH that needs
 * it reads the EML once, as a stream (the scanner holds a line at a time), and stores the
 * tree in the mail's layout for every later one.
 */
export class MailMimeTrees {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
  ) {}

  /** The user's live mail as MailSectionReader reads it, its tree found first if it has none. */
  async sectionedMail(userId: number, mailId: number): Promise<SectionedMail> {
    const { rows } = await this.db.sql.query<Omit<MailWithLayout, 'id'>>({ ...MAIL_LAYOUT, values: [mailId, userId] });
    const row = rows[0];
    if (!row) throw new MailNotFoundError(mailId);
    return { id: mailId, storageKey: row.storageKey, tree: await this.treeOf({ id: mailId, ...row }) };
  }

  /**
   * The trees of a FETCH's chunk of mails, in their order, each with its top-level envelope: a tree recorded
   * before envelopes were has its header block read once, and the envelopes of the chunk are stored in one
   * statement, so every later ENVELOPE is read from the row.
   */
  async treesOf(mails: readonly MailWithLayout[]): Promise<MimePart[]> {
    const trees: MimePart[] = [];
    for (const mail of mails) trees.push(await this.treeOf(mail));
    const missing = mails.map((mail, index) => ({ mail, tree: trees[index] })).filter(({ tree }) => !tree.envelope);
    if (missing.length === 0) return trees;
    await mapConcurrently(missing, HEADER_READS, async ({ mail, tree }) => {
      const [block] = await this.blobs.readRanges(mail.storageKey, [{ start: 0, end: Math.min(tree.body, MAX_HEADER_BLOCK) }]);
      tree.envelope = envelopeFieldsOfHeaderBlock(block);
    });
    await this.db.sql.query({
      ...STORE_ENVELOPES,
      values: [missing.map(({ mail }) => mail.id), missing.map(({ tree }) => JSON.stringify(tree.envelope, storableJson))],
    });
    return trees;
  }

  /** The mail's tree: the one its layout holds, else the one its EML has, then stored in its layout. */
  async treeOf(mail: MailWithLayout): Promise<MimePart> {
    if (mail.layout.tree) return mail.layout.tree;
    const { tree } = await scanLayout(this.blobs.createReadStream(mail.storageKey));
    await this.db.sql.query({ ...STORE_TREE, values: [mail.id, JSON.stringify(tree, storableJson)] });
    return tree;
  }
}
