-- Mail clients (issue 35): app passwords, with which a user who signs in with a second factor signs a mail
-- client (SMTP submission, IMAP) in; each is shown once when made, and kept as a SHA-256 hash (it is random and long, as recovery codes).
CREATE TABLE "app_passwords" (
  "id" SERIAL PRIMARY KEY,
  "user_id" INTEGER NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "secret_hash" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "last_used_at" TIMESTAMPTZ(3)
);
CREATE INDEX "app_passwords_user_id_idx" ON "app_passwords" ("user_id");

-- A send a mail client submitted (request->'submitted') is its stored message: the blob collector asks
-- whether a blob is one. Partial: small, whatever the number of other sends.
CREATE INDEX "outbound_sends_submitted_blob_idx" ON "outbound_sends" (("request" -> 'submitted' ->> 'storageKey')) WHERE "request" ? 'submitted';
