-- IMAP SEARCH UNSEEN, FLAGGED and DELETED (and EXPUNGE, which takes the \Deleted mails) read a mailbox's mails
-- with the flag from these, not every mail of the mailbox: a client asks for its unseen mail on every sync.
CREATE INDEX "mails_mailbox_unseen_idx" ON "mails" ("mailbox_id") WHERE NOT "seen" AND "deleted_at" IS NULL;
CREATE INDEX "mails_mailbox_flagged_idx" ON "mails" ("mailbox_id") WHERE "flagged" AND "deleted_at" IS NULL;
CREATE INDEX "mails_mailbox_marked_deleted_idx" ON "mails" ("mailbox_id") WHERE "marked_deleted" AND "deleted_at" IS NULL;
