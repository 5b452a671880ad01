-- The people a user writes to and hears from, for recipient autocomplete: kept by a
-- statement-level trigger on mails (one upsert per statement, batch inserts included),
-- so a lookup reads a handful of rows, never the user's mail.
CREATE TABLE "contacts" (
    "user_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "sent_count" INTEGER NOT NULL DEFAULT 0,
    "received_count" INTEGER NOT NULL DEFAULT 0,
    "last_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contacts_pkey" PRIMARY KEY ("user_id", "address")
);

ALTER TABLE "contacts" ADD CONSTRAINT "contacts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Senders of mail received (not in Sent or Drafts), and recipients of mail sent. Rows are
-- upserted in key order, so two statements touching the same contacts cannot deadlock.
CREATE FUNCTION "contacts_follow_mails"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "contacts" ("user_id", "address", "name", "sent_count", "received_count", "last_at")
    SELECT "user_id", "address", max("name"), sum("sent"), sum("received"), max("at") FROM (
        SELECT n."user_id", lower(n."from_address") AS "address", n."from_name" AS "name", 0 AS "sent", 1 AS "received", n."received_at" AS "at"
          FROM new_rows n JOIN "mailboxes" b ON b."id" = n."mailbox_id"
         WHERE b."role" NOT IN ('sent', 'drafts')
        UNION ALL
        SELECT n."user_id", lower(r->>'address'), COALESCE(r->>'name', ''), 1, 0, n."received_at"
          FROM new_rows n JOIN "mailboxes" b ON b."id" = n."mailbox_id"
         CROSS JOIN LATERAL jsonb_array_elements(n."to_addresses" || n."cc_addresses") AS r
         WHERE b."role" = 'sent'
    ) AS people
    WHERE "address" LIKE '_%@_%' AND length("address") <= 320
    GROUP BY "user_id", "address"
    ORDER BY "user_id", "address"
    ON CONFLICT ("user_id", "address") DO UPDATE SET
        "name" = COALESCE(NULLIF(EXCLUDED."name", ''), "contacts"."name"),
        "sent_count" = "contacts"."sent_count" + EXCLUDED."sent_count",
        "received_count" = "contacts"."received_count" + EXCLUDED."received_count",
        "last_at" = GREATEST("contacts"."last_at", EXCLUDED."last_at");
    RETURN NULL;
END;
$$;

CREATE TRIGGER "mails_insert_contacts" AFTER INSERT ON "mails"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "contacts_follow_mails"();

-- The people of mail stored before this migration.
INSERT INTO "contacts" ("user_id", "address", "name", "sent_count", "received_count", "last_at")
SELECT "user_id", "address", max("name"), sum("sent"), sum("received"), max("at") FROM (
    SELECT m."user_id", lower(m."from_address") AS "address", m."from_name" AS "name", 0 AS "sent", 1 AS "received", m."received_at" AS "at"
      FROM "mails" m JOIN "mailboxes" b ON b."id" = m."mailbox_id" WHERE b."role" NOT IN ('sent', 'drafts')
    UNION ALL
    SELECT m."user_id", lower(r->>'address'), COALESCE(r->>'name', ''), 1, 0, m."received_at"
      FROM "mails" m JOIN "mailboxes" b ON b."id" = m."mailbox_id"
     CROSS JOIN LATERAL jsonb_array_elements(m."to_addresses" || m."cc_addresses") AS r
     WHERE b."role" = 'sent'
) AS people
WHERE "address" LIKE '_%@_%' AND length("address") <= 320
GROUP BY "user_id", "address";
