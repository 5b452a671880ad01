-- IMAP's view of the folders (RFC 3501 2.3.1.1, RFC 7162): each mailbox has a UIDVALIDITY
-- never given to another, and each mail in it a UID, strictly increasing in the mailbox and
-- never reused; each change a client can see (a mail arriving or leaving, a flag) takes the
-- mailbox's next MODSEQ, one per statement and mailbox (RFC 7162 lets mails changed together
-- share one).
CREATE SEQUENCE "mailbox_uid_validity" AS BIGINT MINVALUE 1 MAXVALUE 4294967295;

ALTER TABLE "mailboxes"
    ADD COLUMN "uid_validity" BIGINT NOT NULL DEFAULT nextval('mailbox_uid_validity'),
    ADD COLUMN "uid_next" BIGINT NOT NULL DEFAULT 1,
    ADD COLUMN "highest_modseq" BIGINT NOT NULL DEFAULT 1;

-- The IMAP flags that have no column yet: \Deleted (marked, not yet expunged) and keywords.
ALTER TABLE "mails"
    ADD COLUMN "marked_deleted" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "keywords" TEXT[] NOT NULL DEFAULT '{}';

-- A visible mail's UID in its mailbox and the MODSEQ of its last change, apart from the wide
-- mail row so that numbering and flag changes write a narrow row. The flags SEARCH asks for on
-- every sync are copied here, with partial indexes: an index on mails.seen would make each
-- read/unread change of the wide row a non-HOT update of its dozen indexes. Kept by the trigger below
-- alone (no foreign key to mails: a cascade would remove the row before the trigger reads the
-- UID it must report expunged).
CREATE TABLE "mail_uids" (
    "mail_id" BIGINT NOT NULL,
    "mailbox_id" INTEGER NOT NULL,
    "uid" BIGINT NOT NULL,
    "modseq" BIGINT NOT NULL,
    "seen" BOOLEAN NOT NULL,
    "flagged" BOOLEAN NOT NULL,
    "marked_deleted" BOOLEAN NOT NULL,
    CONSTRAINT "mail_uids_pkey" PRIMARY KEY ("mail_id"),
    CONSTRAINT "mail_uids_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE
);
-- SELECT's UID list and FETCH's ranges read this index alone.
CREATE UNIQUE INDEX "mail_uids_mailbox_uid_key" ON "mail_uids" ("mailbox_id", "uid") INCLUDE ("mail_id", "modseq");
-- CHANGEDSINCE and QRESYNC: what changed after a MODSEQ.
CREATE INDEX "mail_uids_mailbox_modseq_idx" ON "mail_uids" ("mailbox_id", "modseq");
-- SEARCH UNSEEN, FLAGGED and DELETED, and EXPUNGE, read only the mail with the flag.
CREATE INDEX "mail_uids_unseen_idx" ON "mail_uids" ("mailbox_id", "uid") WHERE NOT "seen";
CREATE INDEX "mail_uids_flagged_idx" ON "mail_uids" ("mailbox_id", "uid") WHERE "flagged";
CREATE INDEX "mail_uids_marked_deleted_idx" ON "mail_uids" ("mailbox_id", "uid") WHERE "marked_deleted";

-- UIDs that left a mailbox (expunged, moved out, deleted), with the MODSEQ of their leaving:
-- QRESYNC's VANISHED (EARLIER) for a client back after a while.
CREATE TABLE "mail_expunges" (
    "mailbox_id" INTEGER NOT NULL,
    "modseq" BIGINT NOT NULL,
    "uid" BIGINT NOT NULL,
    CONSTRAINT "mail_expunges_pkey" PRIMARY KEY ("mailbox_id", "modseq", "uid"),
    CONSTRAINT "mail_expunges_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE
);

-- Numbers the mail a statement stored, moved, replaced, flagged or removed. The mailboxes it
-- touches are locked in id order before any is written, as the counters' trigger locks them,
-- and no more strongly than an UPDATE locks them (FOR NO KEY UPDATE): a mail inserted by
-- another statement holds its mailbox's key share until it commits, which FOR UPDATE awaits;
-- on UPDATE this trigger fires before the counters' (triggers fire in name order), so a
-- statement always takes its mailboxes before its users. A mail is visible while deleted_at
-- is NULL; a new stored message (a draft saved again) is a new mail to IMAP, as its content
-- cannot change under a UID.
-- One mail's change as the trigger below sees it.
CREATE TYPE "imap_mail_change" AS (
    "mail_id" BIGINT, "old_box" INTEGER, "new_box" INTEGER, "seen" BOOLEAN, "flagged" BOOLEAN, "marked_deleted" BOOLEAN,
    "leaving" BOOLEAN, "arriving" BOOLEAN, "reflagged" BOOLEAN
);

CREATE FUNCTION "imap_uids_follow_mails"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed "imap_mail_change"[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM "mailboxes" WHERE "id" IN (SELECT "mailbox_id" FROM new_rows WHERE "deleted_at" IS NULL) ORDER BY "id" FOR NO KEY UPDATE;
        WITH arrivals AS (
            SELECT "mailbox_id", count(*) AS arrived FROM new_rows WHERE "deleted_at" IS NULL GROUP BY "mailbox_id"
        ), numbered AS (
            UPDATE "mailboxes" m SET "uid_next" = m."uid_next" + a.arrived, "highest_modseq" = m."highest_modseq" + 1
            FROM arrivals a WHERE m."id" = a."mailbox_id"
            RETURNING m."id", m."uid_next" - a.arrived AS first_uid, m."highest_modseq"
        )
        INSERT INTO "mail_uids" ("mail_id", "mailbox_id", "uid", "modseq", "seen", "flagged", "marked_deleted")
        SELECT r."id", r."mailbox_id", n.first_uid + row_number() OVER (PARTITION BY r."mailbox_id" ORDER BY r."id") - 1, n."highest_modseq",
               r."seen", r."flagged", r."marked_deleted"
        FROM new_rows r JOIN numbered n ON n."id" = r."mailbox_id" WHERE r."deleted_at" IS NULL;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM "mailboxes" WHERE "id" IN (SELECT "mailbox_id" FROM old_rows WHERE "deleted_at" IS NULL) ORDER BY "id" FOR NO KEY UPDATE;
        WITH gone AS (
            DELETE FROM "mail_uids" u USING old_rows o WHERE u."mail_id" = o."id" RETURNING u."mailbox_id", u."uid"
        ), bumped AS (
            UPDATE "mailboxes" m SET "highest_modseq" = m."highest_modseq" + 1
            WHERE m."id" IN (SELECT "mailbox_id" FROM gone) RETURNING m."id", m."highest_modseq"
        )
        INSERT INTO "mail_expunges" ("mailbox_id", "modseq", "uid")
        SELECT g."mailbox_id", b."highest_modseq", g."uid" FROM gone g JOIN bumped b ON b."id" = g."mailbox_id";
    ELSE
        -- The statement's changes IMAP sees, read once: first its mailboxes are locked in
        -- order, then it is numbered under those locks.
        SELECT array_agg(ROW(c."id", c.old_box, c.new_box, c."seen", c."flagged", c."marked_deleted",
                             c.was_visible AND (NOT c.is_visible OR c.replaced),
                             c.is_visible AND (NOT c.was_visible OR c.replaced),
                             c.was_visible AND c.is_visible AND NOT c.replaced AND c.flags_changed)::"imap_mail_change")
        INTO changed
        FROM (
            SELECT n."id", o."mailbox_id" AS old_box, n."mailbox_id" AS new_box, n."seen", n."flagged", n."marked_deleted",
                   o."deleted_at" IS NULL AS was_visible, n."deleted_at" IS NULL AS is_visible,
                   o."mailbox_id" <> n."mailbox_id" OR o."storage_key" <> n."storage_key" AS replaced,
                   (o."seen", o."flagged", o."answered", o."forwarded", o."marked_deleted", o."keywords")
                       IS DISTINCT FROM (n."seen", n."flagged", n."answered", n."forwarded", n."marked_deleted", n."keywords") AS flags_changed
            FROM new_rows n JOIN old_rows o ON o."id" = n."id"
            WHERE o."deleted_at" IS NULL OR n."deleted_at" IS NULL
        ) c
        WHERE (c.was_visible IS DISTINCT FROM c.is_visible) OR (c.was_visible AND (c.replaced OR c.flags_changed));
        IF changed IS NULL THEN
            RETURN NULL;
        END IF;
        PERFORM 1 FROM "mailboxes" WHERE "id" IN (
            SELECT old_box FROM unnest(changed) WHERE leaving UNION SELECT new_box FROM unnest(changed) WHERE arriving OR reflagged
        ) ORDER BY "id" FOR NO KEY UPDATE;
        WITH changes AS (
            SELECT * FROM unnest(changed)
        ), per_box AS (
            SELECT box, sum(arrived) AS arrived FROM (
                SELECT old_box AS box, 0 AS arrived FROM changes WHERE leaving
                UNION ALL SELECT new_box, 1 FROM changes WHERE arriving
                UNION ALL SELECT new_box, 0 FROM changes WHERE reflagged
            ) AS each_change GROUP BY box
        ), bumped AS (
            UPDATE "mailboxes" m SET "uid_next" = m."uid_next" + p.arrived, "highest_modseq" = m."highest_modseq" + 1
            FROM per_box p WHERE m."id" = p.box
            RETURNING m."id", m."uid_next" - p.arrived AS first_uid, m."highest_modseq"
        ), arrivals AS (
            SELECT c."mail_id", c.new_box, c.leaving, c."seen", c."flagged", c."marked_deleted", b."highest_modseq",
                   b.first_uid + row_number() OVER (PARTITION BY c.new_box ORDER BY c."mail_id") - 1 AS uid
            FROM changes c JOIN bumped b ON b."id" = c.new_box WHERE c.arriving
        ), departures AS (
            SELECT u."mail_id", u."mailbox_id", u."uid" FROM "mail_uids" u JOIN changes c ON c."mail_id" = u."mail_id" WHERE c.leaving
        ), moved AS (
            -- A mail that leaves one place for another keeps its row: one statement may not
            -- delete and insert the same key.
            UPDATE "mail_uids" u SET "mailbox_id" = a.new_box, "uid" = a.uid, "modseq" = a."highest_modseq",
                   "seen" = a."seen", "flagged" = a."flagged", "marked_deleted" = a."marked_deleted"
            FROM arrivals a WHERE a.leaving AND u."mail_id" = a."mail_id"
        ), removed AS (
            DELETE FROM "mail_uids" u USING changes c WHERE c.leaving AND NOT c.arriving AND u."mail_id" = c."mail_id"
        ), added AS (
            INSERT INTO "mail_uids" ("mail_id", "mailbox_id", "uid", "modseq", "seen", "flagged", "marked_deleted")
            SELECT a."mail_id", a.new_box, a.uid, a."highest_modseq", a."seen", a."flagged", a."marked_deleted" FROM arrivals a WHERE NOT a.leaving
        ), reflagged AS (
            UPDATE "mail_uids" u SET "modseq" = b."highest_modseq", "seen" = c."seen", "flagged" = c."flagged", "marked_deleted" = c."marked_deleted"
            FROM changes c JOIN bumped b ON b."id" = c.new_box WHERE c.reflagged AND u."mail_id" = c."mail_id"
        )
        INSERT INTO "mail_expunges" ("mailbox_id", "modseq", "uid")
        SELECT d."mailbox_id", b."highest_modseq", d."uid" FROM departures d JOIN bumped b ON b."id" = d."mailbox_id";
    END IF;
    RETURN NULL;
END;
$$;

-- Named to fire before the counters' triggers (mails_delete_counts fires first on DELETE,
-- where every mailbox this one locks the counters' has locked already).
CREATE TRIGGER "mails_imap_insert" AFTER INSERT ON "mails"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "imap_uids_follow_mails"();
CREATE TRIGGER "mails_imap_update" AFTER UPDATE ON "mails"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "imap_uids_follow_mails"();
CREATE TRIGGER "mails_imap_delete" AFTER DELETE ON "mails"
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "imap_uids_follow_mails"();

-- The mail stored before this migration, numbered oldest first.
INSERT INTO "mail_uids" ("mail_id", "mailbox_id", "uid", "modseq", "seen", "flagged", "marked_deleted")
SELECT "id", "mailbox_id", row_number() OVER (PARTITION BY "mailbox_id" ORDER BY "received_at", "id"), 1, "seen", "flagged", "marked_deleted"
FROM "mails" WHERE "deleted_at" IS NULL;
UPDATE "mailboxes" m SET "uid_next" = numbered.last_uid + 1
FROM (SELECT "mailbox_id", max("uid") AS last_uid FROM "mail_uids" GROUP BY "mailbox_id") numbered
WHERE m."id" = numbered."mailbox_id";
