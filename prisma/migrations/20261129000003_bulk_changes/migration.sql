-- A change to every mail a filter matches, done in slices by a job: each slice is one short
-- transaction that changes the next mails by the list's keyset and moves the cursor on, so a
-- crash resumes where the last committed slice ended and no slice holds more than its own locks.
-- The change takes the mails no newer than the newest at its start (bound_*); mail arriving
-- later is left alone.

CREATE TABLE "bulk_changes" (
    "id" BIGSERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "queue_prefix" TEXT NOT NULL,
    "action" JSONB NOT NULL,
    "filter" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "bound_received_at" TIMESTAMPTZ(3),
    "bound_id" BIGINT,
    "cursor_received_at" TIMESTAMPTZ(3),
    "cursor_id" BIGINT,
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "bulk_changes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "bulk_changes_status_check" CHECK ("status" IN ('queued', 'running', 'done', 'failed'))
);
CREATE INDEX "bulk_changes_user_id_idx" ON "bulk_changes"("user_id");
-- The sweep's question: unfinished changes of a queue namespace.
CREATE INDEX "bulk_changes_unfinished_idx" ON "bulk_changes"("queue_prefix", "updated_at") WHERE "status" IN ('queued', 'running');
ALTER TABLE "bulk_changes" ADD CONSTRAINT "bulk_changes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
