export { BlobStore, BlobNotFoundError, type StoredBlob, type TrackedPut, type ByteRange, type Compression } from './blob-store';
export { DiskBlobStore } from './disk-blob-store';
export { S3BlobStore } from './s3-blob-store';
export { createS3Client } from './s3-client';
export { createBlobStore, type StorageSettings } from './create-blob-store';
export { BlobCollector, type BlobReferences } from './blob-collector';
export { discardCreatedBlob } from './discard-created-blob';
export { SourceEndedEarlyError } from './pipe-all';
