-- When the message says it was written: its Date header, read leniently; NULL when it has none
-- or none that parses. IMAP SORT (DATE), THREAD and SENTBEFORE/SENTON/SENTSINCE read
-- COALESCE(sent_at, received_at) (RFC 5256: a message without a Date is dated by its internal
-- date), so mail stored before this column needs no backfill. No default: adding the column
-- rewrites nothing, however many mails there are.
ALTER TABLE "mails" ADD COLUMN "sent_at" TIMESTAMPTZ(3);

-- The base subject of RFC 5256 section 2.1, folded to lower case (SORT and THREAD compare it
-- i;ascii-casemap): what IMAP SORT (SUBJECT) orders by and THREAD=ORDEREDSUBJECT groups by.
-- Computed when a command asks, not stored: no column to fill for the mail already stored, and
-- the work is linear in the subject (each pass of a loop removes what it matched, the leaders'
-- regex takes every consecutive "Re:"/"Fwd:" at once). A subject with nothing to remove at
-- either end (most) costs one regex, the whitespace's.
CREATE FUNCTION imap_base_subject(subject text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  -- (1) Whitespace runs become one space.
  base text := regexp_replace(subject, '[[:space:]]+', ' ', 'g');
  before text;
  unblobbed text;
BEGIN
  LOOP
    -- (2) Trailing "(fwd)" and whitespace.
    IF right(base, 1) IN (' ', ')') THEN
      base := regexp_replace(base, '(\(fwd\)| )+$', '', 'i');
    END IF;
    WHILE left(base, 1) IN (' ', '[') OR lower(left(base, 2)) IN ('re', 'fw') LOOP
      before := base;
      -- (3) Leading subj-leaders: whitespace, or "Re:", "Fw:", "Fwd:" after any [blobs] and with an optional [blob] before the colon.
      base := regexp_replace(base, '^( |(\[[^][]*\] *)*(re|fwd?) *(\[[^][]*\] *)?:)+', '', 'i');
      -- (4) A leading [blob], when something is left after it.
      unblobbed := regexp_replace(base, '^\[[^][]*\] *', '');
      IF unblobbed <> base AND unblobbed ~ '[^ ]' THEN
        base := unblobbed;
      END IF;
      -- (5) Until neither changes anything.
      EXIT WHEN base = before;
    END LOOP;
    -- (6) "[fwd: ...]" around the whole subject, unwrapped, then again from (2).
    EXIT WHEN NOT (base ILIKE '[fwd:%' AND base LIKE '%]');
    base := substr(base, 6, length(base) - 6);
  END LOOP;
  RETURN lower(base);
END
$$;
