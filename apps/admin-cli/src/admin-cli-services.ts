import { RevocationPublisher, sessionRevocationsChannel, type SessionAnnouncer } from '@letterbox/accounts';
import { AddUser, ChangeUser, DomainDkimKeys, DomainDnsRecords, Offices, OfficeDomains, UserDirectory } from '@letterbox/admin';
import { AuditLog } from '@letterbox/audit';
import { restoreBackup, takeBackup, UserMbox } from '@letterbox/backup';
import { createDatabase } from '@letterbox/db';
import { DkimKeyCipher } from '@letterbox/dkim';
import { spoolFolderOf } from '@letterbox/ingest';
import { loggerFor } from '@letterbox/observability';
import { redisConnection, whenReady, type RedisConnection } from '@letterbox/redis';
import { createBlobStore } from '@letterbox/storage';
import type { AdminCliConfig } from './admin-cli.config';

/**
 * The admin use cases over the configured database and storage; Redis is connected to only when a command
 * ends sessions. The storage is opened with each compression: a restore puts each blob as its key says.
 */
export function adminCliServices(config: AdminCliConfig) {
  const db = createDatabase({ url: config.DATABASE_URL, poolSize: 2, applicationName: 'letterbox-admin-cli' });
  const audit = new AuditLog(db.sql);
  const users = new UserDirectory(db.sql, config.USER_QUOTA_BYTES);
  const records = new DomainDnsRecords(db.sql, config.SPF_SENDERS);
  let redis: RedisConnection | undefined;
  const logger = loggerFor('sessions');
  const sessions: SessionAnnouncer = {
    async announce(userId) {
      try {
        redis ??= redisConnection(config, 'fail-fast', 'redis revocations');
        await whenReady(redis, Error);
        await new RevocationPublisher(redis, sessionRevocationsChannel(config.QUEUE_PREFIX)).announce(userId);
      } catch (error) {
        logger.warn(
          `the end of user ${userId}'s sessions was not announced; the APIs notice it within their session cache's time: ${(error as Error).message}`,
        );
      }
    },
  };
  const blobs = { none: createBlobStore({ ...config, STORAGE_COMPRESS: 'none' }), gzip: createBlobStore({ ...config, STORAGE_COMPRESS: 'gzip' }) };
  const spoolFolder = config.STORAGE_BACKEND === 'disk' ? spoolFolderOf(config.STORAGE_DIR) : undefined;
  return {
    backup: (dir: string) => takeBackup({ databaseUrl: config.DATABASE_URL, blobs: blobs.none, spoolFolder, graceMs: config.BLOB_GRACE_MS }, dir),
    mbox: new UserMbox(db.sql, blobs[config.STORAGE_COMPRESS]),
    restore: (dir: string) => restoreBackup(dir, { databaseUrl: config.DATABASE_URL, sql: db.sql, blobs, spoolFolder }),
    offices: new Offices(db.sql, audit),
    domains: new OfficeDomains(db.sql, audit, records),
    records,
    dkimKeys: new DomainDkimKeys(db.sql, audit, DkimKeyCipher.fromSetting(config.DKIM_KEY_ENCRYPTION_KEY)),
    users,
    addUser: new AddUser(db.sql, audit, users),
    changeUser: new ChangeUser(db.sql, audit, sessions, users),
    async close() {
      redis?.disconnect();
      blobs.none.close();
      blobs.gzip.close();
      await db.close();
    },
  };
}

export type AdminCliServices = ReturnType<typeof adminCliServices>;
