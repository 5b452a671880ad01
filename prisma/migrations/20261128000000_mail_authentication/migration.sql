-- The checks of an incoming mail (SPF, DKIM, DMARC, ARC and the sender verdict, libs/mail-auth
-- MailAuthentication), stored with it; NULL for mail stored before they were made and for mail not received.
ALTER TABLE "mails" ADD COLUMN "authentication" JSONB;
