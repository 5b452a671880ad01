export { BlobStore, BlobNotFoundError, type StoredBlob, type TrackedPut, type ByteRange, type Compression } from './blob-store';
export type { BlobVersion } from './blob-version';
export { BlobCollector, type BlobReferences } from './blob-collector';
export { discardCreatedBlob } from './discard-created-blob';
export { SourceEndedEarlyError } from './pipe-all';
