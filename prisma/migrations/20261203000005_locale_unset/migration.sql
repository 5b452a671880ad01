-- A user's language is theirs once they choose one (issue 34): until then (NULL) the webmail follows the
-- browser's, and notices are written in English. The old default 'en' could not be told from a choice: it
-- becomes NULL, so a Korean browser is no longer switched to English at sign-in; a choice of Korean stays.
ALTER TABLE "users" ALTER COLUMN "locale" DROP DEFAULT;
ALTER TABLE "users" ALTER COLUMN "locale" DROP NOT NULL;
UPDATE "users" SET "locale" = NULL WHERE "locale" = 'en';
