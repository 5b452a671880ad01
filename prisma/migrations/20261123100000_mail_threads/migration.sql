-- Conversations: every mail belongs to a thread of its user, named by the id of a mail in
-- it (a new thread takes its first mail's id). Mails stored before threads are their own.
-- Answered and forwarded are the IMAP/JMAP $Answered and $Forwarded keywords.
ALTER TABLE "mails" ADD COLUMN "thread_id" BIGINT,
                    ADD COLUMN "answered" BOOLEAN NOT NULL DEFAULT false,
                    ADD COLUMN "forwarded" BOOLEAN NOT NULL DEFAULT false;
UPDATE "mails" SET "thread_id" = "id";
ALTER TABLE "mails" ALTER COLUMN "thread_id" SET NOT NULL;

CREATE INDEX "mails_thread_idx" ON "mails"("user_id", "thread_id", "received_at" DESC, "id" DESC);

-- Reply and forward prefixes as mail clients write them in several languages; a subject
-- that starts with one answers an earlier mail.
CREATE FUNCTION "mail_subject_reply_prefix"() RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '^(\s*((re|fwd?|aw|sv|vs|antw|wg|tr|rif|답장|회신|전달|回复|回覆|转发|轉寄|返信|転送)(\s*\[\d+\])?\s*[:：]))+'
$$;

-- The subject a conversation is known by: lower case, reply and forward prefixes gone,
-- white space collapsed, at most 200 characters (so its index entries stay small).
CREATE FUNCTION "mail_thread_subject"("subject" TEXT) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(btrim(regexp_replace(regexp_replace(lower(left("subject", 1000)), mail_subject_reply_prefix(), ''), '\s+', ' ', 'g')), 200)
$$;

CREATE INDEX "mails_thread_subject_idx" ON "mails"("user_id", mail_thread_subject("subject"), "received_at" DESC);

-- The thread a new mail of a user joins, or null for a new one: the thread of a mail it
-- names in In-Reply-To or References, else, for a mail that answers one (it has references
-- or a reply prefix), the newest thread of the last 30 days with its subject. A thread of
-- 100 messages takes no more, so no conversation grows without bound (Gmail's limit too).
CREATE FUNCTION "mail_thread_of"("p_user_id" INT, "p_references" TEXT[], "p_subject" TEXT, "p_received_at" TIMESTAMPTZ)
RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT found."thread_id" FROM (
    SELECT * FROM (
      SELECT m."thread_id", 1 AS "rank" FROM "mails" m
       WHERE m."user_id" = "p_user_id" AND m."message_id" = ANY("p_references")
       ORDER BY m."id" DESC LIMIT 1
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
  ) AS found
  WHERE (SELECT count(*) FROM (SELECT 1 FROM "mails" t WHERE t."user_id" = "p_user_id" AND t."thread_id" = found."thread_id" LIMIT 100) AS members) < 100
  ORDER BY found."rank" LIMIT 1
$$;
