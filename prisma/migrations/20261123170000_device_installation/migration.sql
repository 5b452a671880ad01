-- SHA-256 of the secret the app installation registered its token with: only the same installation moves a
-- token from one user to another.
ALTER TABLE "devices" ADD COLUMN "installation_hash" TEXT;
