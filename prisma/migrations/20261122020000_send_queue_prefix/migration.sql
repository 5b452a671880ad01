-- DropIndex
DROP INDEX "outbound_sends_status_enqueued_at_idx";

-- AlterTable
ALTER TABLE "outbound_sends" ADD COLUMN     "queue_prefix" TEXT NOT NULL DEFAULT 'bull';

-- CreateIndex
CREATE INDEX "outbound_sends_queue_prefix_status_enqueued_at_idx" ON "outbound_sends"("queue_prefix", "status", "enqueued_at");
