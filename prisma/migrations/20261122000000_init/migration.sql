-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "mailbox_role" AS ENUM ('inbox', 'sent', 'drafts', 'trash', 'spam', 'custom');

-- CreateEnum
CREATE TYPE "send_status" AS ENUM ('queued', 'sending', 'sent', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "offices" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "offices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "office_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mailboxes" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "role" "mailbox_role" NOT NULL,
    "locked" BOOLEAN NOT NULL DEFAULT false,
    "total_count" INTEGER NOT NULL DEFAULT 0,
    "unread_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mailboxes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mails" (
    "id" BIGSERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "mailbox_id" INTEGER NOT NULL,
    "message_id" TEXT NOT NULL,
    "from_address" TEXT NOT NULL,
    "from_name" TEXT NOT NULL DEFAULT '',
    "to_addresses" JSONB NOT NULL DEFAULT '[]',
    "cc_addresses" JSONB NOT NULL DEFAULT '[]',
    "subject" TEXT NOT NULL DEFAULT '',
    "snippet" TEXT NOT NULL DEFAULT '',
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "size" INTEGER NOT NULL,
    "seen" BOOLEAN NOT NULL DEFAULT false,
    "flagged" BOOLEAN NOT NULL DEFAULT false,
    "important" BOOLEAN NOT NULL DEFAULT false,
    "has_attachments" BOOLEAN NOT NULL DEFAULT false,
    "deleted_at" TIMESTAMPTZ(3),
    "storage_key" TEXT NOT NULL,
    "layout" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mails_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attachments" (
    "id" BIGSERIAL NOT NULL,
    "mail_id" BIGINT NOT NULL,
    "part_id" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "disposition" TEXT NOT NULL,
    "content_id" TEXT,
    "size" INTEGER NOT NULL,
    "encoding" TEXT NOT NULL,
    "body_start" INTEGER NOT NULL,
    "body_end" INTEGER NOT NULL,

    CONSTRAINT "attachments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "read_receipts" (
    "id" BIGSERIAL NOT NULL,
    "office_id" INTEGER NOT NULL,
    "mail_id" BIGINT NOT NULL,
    "recipient_email" TEXT NOT NULL,
    "cert_key" TEXT NOT NULL,
    "first_read_at" TIMESTAMPTZ(3),
    "read_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "read_receipts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "devices" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "token" TEXT NOT NULL,
    "platform" TEXT NOT NULL DEFAULT 'web',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "devices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbound_sends" (
    "id" BIGSERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "status" "send_status" NOT NULL DEFAULT 'queued',
    "idempotency_key" TEXT,
    "request" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "scheduled_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "sent_mail_id" BIGINT,

    CONSTRAINT "outbound_sends_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "offices_domain_key" ON "offices"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "users_office_id_idx" ON "users"("office_id");

-- CreateIndex
CREATE INDEX "mailboxes_user_id_locked_idx" ON "mailboxes"("user_id", "locked");

-- CreateIndex
CREATE UNIQUE INDEX "mailboxes_user_id_name_key" ON "mailboxes"("user_id", "name");

-- CreateIndex
CREATE INDEX "mails_mailbox_list_idx" ON "mails"("user_id", "mailbox_id", "received_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "mails_user_list_idx" ON "mails"("user_id", "received_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "mails_user_id_message_id_idx" ON "mails"("user_id", "message_id");

-- CreateIndex
CREATE INDEX "mails_subject_trgm_idx" ON "mails" USING GIN ("subject" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "mails_from_trgm_idx" ON "mails" USING GIN ("from_address" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "attachments_mail_id_part_id_key" ON "attachments"("mail_id", "part_id");

-- CreateIndex
CREATE UNIQUE INDEX "read_receipts_cert_key_key" ON "read_receipts"("cert_key");

-- CreateIndex
CREATE UNIQUE INDEX "read_receipts_mail_id_recipient_email_key" ON "read_receipts"("mail_id", "recipient_email");

-- CreateIndex
CREATE UNIQUE INDEX "devices_token_key" ON "devices"("token");

-- CreateIndex
CREATE INDEX "devices_user_id_idx" ON "devices"("user_id");

-- CreateIndex
CREATE INDEX "outbound_sends_status_requested_at_idx" ON "outbound_sends"("status", "requested_at");

-- CreateIndex
CREATE UNIQUE INDEX "outbound_sends_user_id_idempotency_key_key" ON "outbound_sends"("user_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_office_id_fkey" FOREIGN KEY ("office_id") REFERENCES "offices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mails" ADD CONSTRAINT "mails_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mails" ADD CONSTRAINT "mails_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_mail_id_fkey" FOREIGN KEY ("mail_id") REFERENCES "mails"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "read_receipts" ADD CONSTRAINT "read_receipts_office_id_fkey" FOREIGN KEY ("office_id") REFERENCES "offices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "read_receipts" ADD CONSTRAINT "read_receipts_mail_id_fkey" FOREIGN KEY ("mail_id") REFERENCES "mails"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbound_sends" ADD CONSTRAINT "outbound_sends_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Beyond what schema.prisma can say --------------------------------------------------

-- One inbox, sent, drafts, trash and spam mailbox per user; any number of custom ones.
CREATE UNIQUE INDEX "mailboxes_user_id_system_role_key" ON "mailboxes"("user_id", "role") WHERE "role" <> 'custom';

-- Mailbox counters follow every write to mails, batch inserts included, as one update
-- per mailbox per statement. Mailboxes are updated in id order so that two statements
-- touching the same mailboxes cannot deadlock.
CREATE FUNCTION "mailbox_counts_follow_mails"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta RECORD;
BEGIN
    IF TG_OP = 'INSERT' THEN
        FOR delta IN
            SELECT "mailbox_id", count(*) AS total, count(*) FILTER (WHERE NOT "seen") AS unread
            FROM new_rows WHERE "deleted_at" IS NULL GROUP BY "mailbox_id" ORDER BY "mailbox_id"
        LOOP
            UPDATE "mailboxes" SET "total_count" = "total_count" + delta.total, "unread_count" = "unread_count" + delta.unread
            WHERE "id" = delta."mailbox_id";
        END LOOP;
    ELSIF TG_OP = 'DELETE' THEN
        FOR delta IN
            SELECT "mailbox_id", count(*) AS total, count(*) FILTER (WHERE NOT "seen") AS unread
            FROM old_rows WHERE "deleted_at" IS NULL GROUP BY "mailbox_id" ORDER BY "mailbox_id"
        LOOP
            UPDATE "mailboxes" SET "total_count" = "total_count" - delta.total, "unread_count" = "unread_count" - delta.unread
            WHERE "id" = delta."mailbox_id";
        END LOOP;
    ELSE
        FOR delta IN
            SELECT "mailbox_id", sum(total) AS total, sum(unread) AS unread FROM (
                SELECT "mailbox_id", 1 AS total, CASE WHEN "seen" THEN 0 ELSE 1 END AS unread
                FROM new_rows WHERE "deleted_at" IS NULL
                UNION ALL
                SELECT "mailbox_id", -1, CASE WHEN "seen" THEN 0 ELSE -1 END
                FROM old_rows WHERE "deleted_at" IS NULL
            ) AS changes
            GROUP BY "mailbox_id" HAVING sum(total) <> 0 OR sum(unread) <> 0 ORDER BY "mailbox_id"
        LOOP
            UPDATE "mailboxes" SET "total_count" = "total_count" + delta.total, "unread_count" = "unread_count" + delta.unread
            WHERE "id" = delta."mailbox_id";
        END LOOP;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "mails_insert_counts" AFTER INSERT ON "mails"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "mailbox_counts_follow_mails"();
CREATE TRIGGER "mails_update_counts" AFTER UPDATE ON "mails"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "mailbox_counts_follow_mails"();
CREATE TRIGGER "mails_delete_counts" AFTER DELETE ON "mails"
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "mailbox_counts_follow_mails"();
