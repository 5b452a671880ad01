-- Every acknowledged incoming message until the ingest worker has stored it: what the
-- sweep queues again when Redis has lost its job.
CREATE TABLE "inbound_acceptances" (
    "inbound_id" UUID NOT NULL,
    "queue_prefix" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "accepted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_acceptances_pkey" PRIMARY KEY ("inbound_id")
);

CREATE INDEX "inbound_acceptances_queue_prefix_accepted_at_idx" ON "inbound_acceptances"("queue_prefix", "accepted_at");
