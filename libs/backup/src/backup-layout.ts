import { open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { DiskBlobStore, type BlobStore, type Compression } from '@letterbox/storage';

/** What a finished backup says of itself; written last, so a backup without it is incomplete. */
export interface BackupManifest {
  format: 1;
  startedAt: string;
  finishedAt: string;
  blobs: number;
  spoolFiles: number;
}

/**
 * A backup folder: `database.dump` (pg_dump's custom format), `blobs/` (a disk blob store,
 * its keys those of the platform's store), `spool/` (the intake spool's files) and
 * `backup.json`, the manifest, written once everything else is on disk.
 */
export class BackupLayout {
  readonly dump: string;
  readonly spool: string;
  /** The backup's blobs, one store per compression, for puts to make the keys they had. */
  readonly blobs: StoresByCompression<DiskBlobStore>;
  private readonly manifestFile: string;

  constructor(readonly dir: string) {
    this.dump = path.join(dir, 'database.dump');
    this.spool = path.join(dir, 'spool');
    this.manifestFile = path.join(dir, 'backup.json');
    const blobs = path.join(dir, 'blobs');
    this.blobs = { none: new DiskBlobStore(blobs, 'none'), gzip: new DiskBlobStore(blobs, 'gzip') };
  }

  async writeManifest(manifest: BackupManifest): Promise<void> {
    const partial = `${this.manifestFile}.partial`;
    const file = await open(partial, 'w');
    try {
      await file.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(partial, this.manifestFile);
  }

  /** The manifest, or undefined when the folder holds no finished backup. */
  async readManifest(): Promise<BackupManifest | undefined> {
    const text = await readFile(this.manifestFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    return text === undefined ? undefined : (JSON.parse(text) as BackupManifest);
  }
}

/** A store of each compression over the same place: a key ending in `.gz` is put by the gzip one, any other by the plain one. */
export type StoresByCompression<Store extends BlobStore = BlobStore> = Record<Compression, Store>;

export function storeFor<Store extends BlobStore>(stores: StoresByCompression<Store>, key: string): Store {
  return key.endsWith('.gz') ? stores.gzip : stores.none;
}
