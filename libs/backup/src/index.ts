export { takeBackup, BackupRefusedError, type BackupSources } from './take-backup';
export { restoreBackup, RestoreRefusedError, type RestoreTarget } from './restore-backup';
export { type BackupManifest, type StoresByCompression } from './backup-layout';
export { PostgresToolError } from './postgres-tools';
export { ImportRunningError, UserMbox } from './mbox/user-mbox';
export { MboxFormatError } from './mbox/mbox-reader';
