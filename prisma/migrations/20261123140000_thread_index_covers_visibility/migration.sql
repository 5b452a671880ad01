-- The conversation list asks, for each mail it walks, whether a newer visible mail of its
-- thread exists: with the mailbox and the deletion in the thread index that is answered
-- from the index alone (no heap fetch per probe). Flags (seen, flagged) stay out of every
-- index, so marking mail read remains a HOT update.
DROP INDEX "mails_thread_idx";
CREATE INDEX "mails_thread_idx" ON "mails"("user_id", "thread_id", "received_at" DESC, "id" DESC) INCLUDE ("mailbox_id", "deleted_at");
