-- An expunged UID is remembered for a while (IMAP_EXPUNGE_RETENTION_DAYS), not for ever: the
-- worker's sweep forgets older ones and notes, per mailbox, the last MODSEQ it forgot. A
-- client back from longer away gets VANISHED (EARLIER) from the gaps between the UIDs still
-- there instead (RFC 7162 3.2.5.2 lets a server answer with more UIDs than vanished).
ALTER TABLE "mail_expunges" ADD COLUMN "expunged_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now();
CREATE INDEX "mail_expunges_expunged_at_idx" ON "mail_expunges" ("expunged_at");
ALTER TABLE "mailboxes" ADD COLUMN "expunges_forgotten_up_to" BIGINT NOT NULL DEFAULT 0;
