-- The thread a new mail of a user joins, or null for a new one. A Message-ID names the first
-- mail of the user holding it: a later mail reusing it (a forgery, or a clash) never takes its
-- place, so replies keep finding the real conversation. A mail whose own Message-ID a mail from
-- another sender holds starts a thread of its own, whatever it names; from the same sender it
-- is a copy of that mail (a message sent to oneself) and joins its thread. Else, as before: the
-- thread of the newest mail it names in In-Reply-To or References (never itself), else, for a
-- mail that answers one, the newest thread of the last 30 days with its subject. A thread of 100
-- messages takes no more.
CREATE FUNCTION "mail_thread_of"("p_user_id" INT, "p_references" TEXT[], "p_subject" TEXT, "p_received_at" TIMESTAMPTZ,
                                 "p_message_id" TEXT, "p_from_address" TEXT)
RETURNS bigint LANGUAGE sql STABLE AS $$
  WITH held AS (
    SELECT m."thread_id", lower(m."from_address") = lower("p_from_address") AS "same_sender" FROM "mails" m
     WHERE m."user_id" = "p_user_id" AND m."message_id" = "p_message_id"
     ORDER BY m."id" LIMIT 1
  ), found AS (
    SELECT "thread_id", 0 AS "rank" FROM held WHERE "same_sender"
    UNION ALL
    SELECT * FROM (
      SELECT first_holders."thread_id", 1 AS "rank" FROM (
        SELECT DISTINCT ON (m."message_id") m."id", m."thread_id" FROM "mails" m
         WHERE m."user_id" = "p_user_id" AND m."message_id" = ANY("p_references") AND m."message_id" IS DISTINCT FROM "p_message_id"
         ORDER BY m."message_id", m."id"
      ) AS first_holders
      ORDER BY first_holders."id" DESC LIMIT 1
    ) AS by_reference
    UNION ALL
    SELECT * FROM (
      SELECT m."thread_id", 2 AS "rank" FROM "mails" m
       WHERE (cardinality("p_references") > 0 OR "p_subject" ~* mail_subject_reply_prefix())
         AND mail_thread_subject("p_subject") <> ''
         AND m."user_id" = "p_user_id" AND mail_thread_subject(m."subject") = mail_thread_subject("p_subject")
         AND m."received_at" > "p_received_at" - interval '30 days'
       ORDER BY m."received_at" DESC LIMIT 1
    ) AS by_subject
  )
  SELECT found."thread_id" FROM found
   WHERE NOT EXISTS (SELECT 1 FROM held WHERE NOT "same_sender")
     AND (SELECT count(*) FROM (SELECT 1 FROM "mails" t WHERE t."user_id" = "p_user_id" AND t."thread_id" = found."thread_id" LIMIT 100) AS members) < 100
   ORDER BY found."rank" LIMIT 1
$$;

-- The apps of the release before call it without the message's own Message-ID and sender:
-- their replies too find the first mail holding an id.
CREATE OR REPLACE FUNCTION "mail_thread_of"("p_user_id" INT, "p_references" TEXT[], "p_subject" TEXT, "p_received_at" TIMESTAMPTZ)
RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT mail_thread_of("p_user_id", "p_references", "p_subject", "p_received_at", NULL, NULL)
$$;
