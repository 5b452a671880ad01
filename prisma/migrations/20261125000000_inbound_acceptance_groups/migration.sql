-- Acceptances recorded together are queued as one job: each names its group's, so the sweep can
-- tell whether Redis still has it. NULL: the acceptance has a job of its own.
ALTER TABLE "inbound_acceptances" ADD COLUMN "group_id" UUID;
