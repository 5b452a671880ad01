import type { BlobStore, Compression } from './blob-store';
import { DiskBlobStore } from './disk-blob-store';
import { S3BlobStore } from './s3-blob-store';
import { createS3Client } from './s3-client';

/** The storage settings, as storageConfig validates them: the S3 ones are there when the backend is s3. */
export interface StorageSettings {
  STORAGE_BACKEND: 'disk' | 's3';
  STORAGE_DIR: string;
  STORAGE_COMPRESS: Compression;
  S3_ENDPOINT?: string;
  S3_BUCKET?: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE: boolean;
}

/** The store the settings choose: the local disk by default, or an S3-compatible bucket. */
export function createBlobStore(settings: StorageSettings): BlobStore {
  if (settings.STORAGE_BACKEND === 'disk') return new DiskBlobStore(settings.STORAGE_DIR, settings.STORAGE_COMPRESS);
  const client = createS3Client({
    endpoint: settings.S3_ENDPOINT,
    bucket: required(settings.S3_BUCKET, 'S3_BUCKET'),
    region: settings.S3_REGION,
    accessKeyId: required(settings.S3_ACCESS_KEY_ID, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: required(settings.S3_SECRET_ACCESS_KEY, 'S3_SECRET_ACCESS_KEY'),
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
  });
  return new S3BlobStore(client, required(settings.S3_BUCKET, 'S3_BUCKET'), settings.STORAGE_COMPRESS);
}

/** storageConfig refuses s3 without these at start: this only narrows their type. */
function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new Error(`${name} is required when STORAGE_BACKEND=s3`);
  return value;
}
