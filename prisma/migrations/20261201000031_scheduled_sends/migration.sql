-- A user's list of scheduled sends ("Send later" in the webmail): only the queued ones,
-- a handful per user among the many sends the table keeps.
CREATE INDEX "outbound_sends_scheduled_idx" ON "outbound_sends" ("user_id", "scheduled_at") WHERE "status" = 'queued';
