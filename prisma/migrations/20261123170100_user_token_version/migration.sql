-- Every token carries the version it was issued under: a sign-out, a new password or a revocation moves it on,
-- and the tokens issued before stop working.
ALTER TABLE "users" ADD COLUMN "token_version" INTEGER NOT NULL DEFAULT 0;
