-- A send's Sent copy is composed and stored by the delivery worker from the recorded request, after
-- the request is answered: the send holds the copy's mail id from the start, and says whether the
-- copy is still to be stored.
ALTER TABLE "outbound_sends" ADD COLUMN "sent_copy_pending" BOOLEAN NOT NULL DEFAULT false;

-- What each deployment's sent-copy sweep walks: only the few copies not stored yet.
CREATE INDEX "outbound_sends_sent_copy_pending_idx" ON "outbound_sends" ("queue_prefix", "id") WHERE "sent_copy_pending";
