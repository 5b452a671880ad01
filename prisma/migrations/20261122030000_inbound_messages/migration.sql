-- Incoming mail is stored once per recipient and Message-ID: this table is the truth the
-- ingest worker's Redis fast path only approximates. A row stays when its mail is moved or
-- deleted, so a redelivered message never comes back.
CREATE TABLE "inbound_messages" (
    "user_id" INTEGER NOT NULL,
    "message_id" TEXT NOT NULL,
    "mail_id" BIGINT,
    "inbound_id" UUID NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_messages_pkey" PRIMARY KEY ("user_id", "message_id")
);

-- A retried ingest finds the mails its earlier attempt stored, to announce them again.
CREATE INDEX "inbound_messages_inbound_id_idx" ON "inbound_messages"("inbound_id");

ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_mail_id_fkey" FOREIGN KEY ("mail_id") REFERENCES "mails"("id") ON DELETE SET NULL ON UPDATE CASCADE;
