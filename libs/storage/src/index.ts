export { BlobStore, BlobNotFoundError, type StoredBlob, type ByteRange, type Compression } from './blob-store';
