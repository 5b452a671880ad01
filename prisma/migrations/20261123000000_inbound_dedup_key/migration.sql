-- An acceptance is the same message as an earlier one only when the sender matches too:
-- the key becomes a hash of sender and Message-ID (see libs/ingest dedup-key.ts).
ALTER TABLE "inbound_messages" RENAME COLUMN "message_id" TO "dedup_key";
