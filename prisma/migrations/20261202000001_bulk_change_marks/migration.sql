-- The change over a filter that last set a flag of this mail: what its undo takes back. Set in
-- the UPDATE a slice already makes (no index, so the row's update can stay HOT), and added
-- without a default, so adding it rewrites nothing.
ALTER TABLE "mails" ADD COLUMN "bulk_change_id" BIGINT;
