-- AlterTable
ALTER TABLE "outbound_sends" ADD COLUMN     "delivered_to" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "enqueued_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "outbound_sends_status_enqueued_at_idx" ON "outbound_sends"("status", "enqueued_at");
