import { namedStatement, type Database } from '@letterbox/db';
import { scanLayout, type MailLayout, type MimePart } from '@letterbox/mime';
import type { BlobStore } from '@letterbox/storage';
import { storableJson } from './storable-text';

const STORE_TREE = namedStatement('mail-store-mime-tree', `UPDATE mails SET layout = jsonb_set(layout, '{tree}', $2::jsonb) WHERE id = $1`);

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

  async treeOf(mail: MailWithLayout): Promise<MimePart> {
    if (mail.layout.tree) return mail.layout.tree;
    const { tree } = await scanLayout(this.blobs.createReadStream(mail.storageKey));
    await this.db.sql.query({ ...STORE_TREE, values: [mail.id, JSON.stringify(tree, storableJson)] });
    return tree;
  }
}
