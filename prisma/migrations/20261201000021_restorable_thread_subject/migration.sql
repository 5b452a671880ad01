-- mail_thread_subject names the function it calls with its schema: pg_restore builds the
-- index on it with an empty search_path, where an unqualified name is not found, so a
-- backup (npm run admin -- backup) could not be restored. The same results: the index stands.
CREATE OR REPLACE FUNCTION "mail_thread_subject"("subject" TEXT) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(btrim(regexp_replace(regexp_replace(lower(left("subject", 1000)), public.mail_subject_reply_prefix(), ''), '\s+', ' ', 'g')), 200)
$$;
