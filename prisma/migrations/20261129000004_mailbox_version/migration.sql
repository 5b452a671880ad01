-- A user's mailbox version: moved on by every change to what GET /v2/mailboxes answers (a
-- mailbox made, renamed, locked or deleted; a count changed), in the transaction that makes
-- it. The API's ETag is it, so a client's If-None-Match is answered from this one row.
ALTER TABLE "users" ADD COLUMN "mailbox_version" BIGINT NOT NULL DEFAULT 0;

-- The counters' trigger also moves the version of each user whose counts changed: after the
-- mailboxes, users in id order, as the usage trigger locks them, so no two statements deadlock.
CREATE OR REPLACE FUNCTION "mailbox_counts_follow_mails"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta RECORD;
    changed_users INT[] := '{}';
BEGIN
    IF TG_OP = 'INSERT' THEN
        FOR delta IN
            SELECT "mailbox_id", "user_id", count(*) AS total, count(*) FILTER (WHERE NOT "seen") AS unread
            FROM new_rows WHERE "deleted_at" IS NULL GROUP BY "mailbox_id", "user_id" ORDER BY "mailbox_id"
        LOOP
            UPDATE "mailboxes" SET "total_count" = "total_count" + delta.total, "unread_count" = "unread_count" + delta.unread
            WHERE "id" = delta."mailbox_id";
            changed_users := changed_users || delta."user_id";
        END LOOP;
    ELSIF TG_OP = 'DELETE' THEN
        FOR delta IN
            SELECT "mailbox_id", "user_id", count(*) AS total, count(*) FILTER (WHERE NOT "seen") AS unread
            FROM old_rows WHERE "deleted_at" IS NULL GROUP BY "mailbox_id", "user_id" ORDER BY "mailbox_id"
        LOOP
            UPDATE "mailboxes" SET "total_count" = "total_count" - delta.total, "unread_count" = "unread_count" - delta.unread
            WHERE "id" = delta."mailbox_id";
            changed_users := changed_users || delta."user_id";
        END LOOP;
    ELSE
        FOR delta IN
            SELECT "mailbox_id", "user_id", sum(total) AS total, sum(unread) AS unread FROM (
                SELECT "mailbox_id", "user_id", 1 AS total, CASE WHEN "seen" THEN 0 ELSE 1 END AS unread
                FROM new_rows WHERE "deleted_at" IS NULL
                UNION ALL
                SELECT "mailbox_id", "user_id", -1, CASE WHEN "seen" THEN 0 ELSE -1 END
                FROM old_rows WHERE "deleted_at" IS NULL
            ) AS changes
            GROUP BY "mailbox_id", "user_id" HAVING sum(total) <> 0 OR sum(unread) <> 0 ORDER BY "mailbox_id"
        LOOP
            UPDATE "mailboxes" SET "total_count" = "total_count" + delta.total, "unread_count" = "unread_count" + delta.unread
            WHERE "id" = delta."mailbox_id";
            changed_users := changed_users || delta."user_id";
        END LOOP;
    END IF;
    FOR delta IN SELECT DISTINCT changed."user_id" FROM unnest(changed_users) AS changed("user_id") ORDER BY changed."user_id"
    LOOP
        UPDATE "users" SET "mailbox_version" = "mailbox_version" + 1 WHERE "id" = delta."user_id";
    END LOOP;
    RETURN NULL;
END;
$$;

-- A mailbox made, renamed, locked or unlocked, or deleted moves its user's version. The
-- counters' own updates set neither column, so they do not fire it.
CREATE FUNCTION "mailbox_version_follows_mailboxes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "users" SET "mailbox_version" = "mailbox_version" + 1
    WHERE "id" = CASE WHEN TG_OP = 'DELETE' THEN OLD."user_id" ELSE NEW."user_id" END;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "mailboxes_version" AFTER INSERT OR DELETE OR UPDATE OF "name", "role", "locked" ON "mailboxes"
    FOR EACH ROW EXECUTE FUNCTION "mailbox_version_follows_mailboxes"();
