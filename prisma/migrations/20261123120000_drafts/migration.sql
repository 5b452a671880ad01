-- A draft is a mail in Drafts (listed, searched, threaded like any) plus what its editor
-- holds, with a version that every save must name: a stale save is refused, not merged.
CREATE TABLE "drafts" (
    "mail_id" BIGINT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "content" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "drafts_pkey" PRIMARY KEY ("mail_id")
);

CREATE INDEX "drafts_user_id_idx" ON "drafts"("user_id");

ALTER TABLE "drafts" ADD CONSTRAINT "drafts_mail_id_fkey" FOREIGN KEY ("mail_id") REFERENCES "mails"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
