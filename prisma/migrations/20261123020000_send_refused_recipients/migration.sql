-- Recipients the provider refused for good (5xx) in a per-recipient send: the others are
-- still delivered, and a retry skips these as it skips those delivered.
ALTER TABLE "outbound_sends" ADD COLUMN "refused_to" TEXT[] DEFAULT ARRAY[]::TEXT[];
