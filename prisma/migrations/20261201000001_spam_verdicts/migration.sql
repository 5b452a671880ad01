-- rspamd's verdict on an incoming mail (libs/mail SpamVerdict): { score, requiredScore, action, symbols }; NULL when it was not scored.
ALTER TABLE "mails" ADD COLUMN "spam" JSONB;
