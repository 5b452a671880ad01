-- The language a user reads Letterbox in: the webmail's words and the notices Letterbox
-- writes them (bounce notices). English until they choose; the API accepts only the
-- languages Letterbox has texts for.
ALTER TABLE "users" ADD COLUMN "locale" TEXT NOT NULL DEFAULT 'en';
ALTER TABLE "users" ADD CONSTRAINT "users_locale_known" CHECK ("locale" IN ('en', 'ko'));
