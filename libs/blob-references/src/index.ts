export { DatabaseBlobReferences } from './database-blob-references';
