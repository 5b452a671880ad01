-- What the conversation list shows of each thread, kept as mail changes: its newest mail,
-- how many mails (and unread), whether any has attachments, and its first senders. Only
-- visible mail counts (not deleted, not in a locked mailbox), so the list of all
-- conversations is one index walk, as cheap as the flat list, instead of walking three
-- mails per conversation and counting each one's thread.
CREATE TABLE "threads" (
    "user_id" INTEGER NOT NULL,
    "thread_id" BIGINT NOT NULL,
    "latest_mail_id" BIGINT NOT NULL,
    "latest_received_at" TIMESTAMPTZ(3) NOT NULL,
    "message_count" INTEGER NOT NULL,
    "unread_count" INTEGER NOT NULL,
    "has_attachments" BOOLEAN NOT NULL,
    "sender_addresses" TEXT[] NOT NULL,
    "sender_names" TEXT[] NOT NULL,

    CONSTRAINT "threads_pkey" PRIMARY KEY ("user_id", "thread_id")
);

CREATE INDEX "threads_list_idx" ON "threads"("user_id", "latest_received_at" DESC, "latest_mail_id" DESC);

ALTER TABLE "threads" ADD CONSTRAINT "threads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Recounts the given threads from their mail (at most 100 each, by mail_thread_of). Rows
-- are locked first, in key order, and counted after with a new snapshot: two statements
-- changing one thread at once count one after the other, so the later sees the earlier's
-- mail, and neither can deadlock the other.
CREATE FUNCTION "threads_refresh"("p_threads" JSONB) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM "threads" t
      JOIN jsonb_to_recordset("p_threads") AS c("user_id" INT, "thread_id" BIGINT) USING ("user_id", "thread_id")
     ORDER BY t."user_id", t."thread_id" FOR UPDATE OF t;

    WITH changed AS (
        SELECT DISTINCT "user_id", "thread_id" FROM jsonb_to_recordset("p_threads") AS c("user_id" INT, "thread_id" BIGINT)
    ), counted AS (
        SELECT c."user_id", c."thread_id", s.*
          FROM changed c CROSS JOIN LATERAL (
              SELECT (array_agg(m."id" ORDER BY m."received_at" DESC, m."id" DESC))[1] AS "latest_mail_id",
                     max(m."received_at") AS "latest_received_at", count(*)::int AS "message_count",
                     (count(*) FILTER (WHERE NOT m."seen"))::int AS "unread_count", bool_or(m."has_attachments") AS "has_attachments",
                     array_agg(m."from_address" ORDER BY m."received_at", m."id") AS "sender_addresses",
                     array_agg(m."from_name" ORDER BY m."received_at", m."id") AS "sender_names"
                FROM "mails" m
               WHERE m."user_id" = c."user_id" AND m."thread_id" = c."thread_id" AND m."deleted_at" IS NULL
                 AND m."mailbox_id" NOT IN (SELECT b."id" FROM "mailboxes" b WHERE b."user_id" = c."user_id" AND b."locked")
          ) AS s
    ), gone AS (
        DELETE FROM "threads" t USING counted c
         WHERE t."user_id" = c."user_id" AND t."thread_id" = c."thread_id" AND c."message_count" = 0
    )
    INSERT INTO "threads" ("user_id", "thread_id", "latest_mail_id", "latest_received_at", "message_count", "unread_count",
                           "has_attachments", "sender_addresses", "sender_names")
    SELECT "user_id", "thread_id", "latest_mail_id", "latest_received_at", "message_count", "unread_count", "has_attachments",
           "sender_addresses", "sender_names"
      FROM counted WHERE "message_count" > 0
     ORDER BY "user_id", "thread_id"
    ON CONFLICT ("user_id", "thread_id") DO UPDATE SET
        "latest_mail_id" = EXCLUDED."latest_mail_id", "latest_received_at" = EXCLUDED."latest_received_at",
        "message_count" = EXCLUDED."message_count", "unread_count" = EXCLUDED."unread_count",
        "has_attachments" = EXCLUDED."has_attachments", "sender_addresses" = EXCLUDED."sender_addresses",
        "sender_names" = EXCLUDED."sender_names";
END;
$$;

CREATE FUNCTION "threads_follow_mails"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    touched JSONB;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT jsonb_agg(DISTINCT jsonb_build_object('user_id', "user_id", 'thread_id', "thread_id")) INTO touched FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT jsonb_agg(DISTINCT jsonb_build_object('user_id', "user_id", 'thread_id', "thread_id")) INTO touched FROM old_rows;
    ELSE
        -- Only what the list shows: a change of subject or body alone (a draft saved) recounts nothing.
        SELECT jsonb_agg(DISTINCT jsonb_build_object('user_id', x."user_id", 'thread_id', x."thread_id")) INTO touched FROM (
            SELECT n."user_id", n."thread_id" FROM new_rows n JOIN old_rows o ON o."id" = n."id"
             WHERE (n."seen", n."mailbox_id", n."deleted_at", n."received_at", n."thread_id", n."has_attachments", n."from_address", n."from_name")
                   IS DISTINCT FROM (o."seen", o."mailbox_id", o."deleted_at", o."received_at", o."thread_id", o."has_attachments", o."from_address", o."from_name")
            UNION ALL
            SELECT o."user_id", o."thread_id" FROM new_rows n JOIN old_rows o ON o."id" = n."id" WHERE n."thread_id" <> o."thread_id"
        ) AS x;
    END IF;
    IF touched IS NOT NULL THEN
        PERFORM "threads_refresh"(touched);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "mails_insert_threads" AFTER INSERT ON "mails"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "threads_follow_mails"();
CREATE TRIGGER "mails_update_threads" AFTER UPDATE ON "mails"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "threads_follow_mails"();
CREATE TRIGGER "mails_delete_threads" AFTER DELETE ON "mails"
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "threads_follow_mails"();

-- A mailbox locked or unlocked changes which mail of its threads is visible (rare: one row
-- at a time; the counters' own updates of mailboxes do not fire it).
CREATE FUNCTION "threads_follow_mailbox_lock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM "threads_refresh"(jsonb_agg(DISTINCT jsonb_build_object('user_id', m."user_id", 'thread_id', m."thread_id")))
       FROM "mails" m WHERE m."user_id" = NEW."user_id" AND m."mailbox_id" = NEW."id"
     HAVING count(*) > 0;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "mailboxes_lock_threads" AFTER UPDATE OF "locked" ON "mailboxes"
    FOR EACH ROW WHEN (OLD."locked" IS DISTINCT FROM NEW."locked") EXECUTE FUNCTION "threads_follow_mailbox_lock"();

-- The threads of mail stored before this migration.
INSERT INTO "threads" ("user_id", "thread_id", "latest_mail_id", "latest_received_at", "message_count", "unread_count",
                       "has_attachments", "sender_addresses", "sender_names")
SELECT m."user_id", m."thread_id", (array_agg(m."id" ORDER BY m."received_at" DESC, m."id" DESC))[1], max(m."received_at"), count(*),
       count(*) FILTER (WHERE NOT m."seen"), bool_or(m."has_attachments"),
       array_agg(m."from_address" ORDER BY m."received_at", m."id"), array_agg(m."from_name" ORDER BY m."received_at", m."id")
  FROM "mails" m JOIN "mailboxes" b ON b."id" = m."mailbox_id"
 WHERE m."deleted_at" IS NULL AND NOT b."locked"
 GROUP BY m."user_id", m."thread_id";
