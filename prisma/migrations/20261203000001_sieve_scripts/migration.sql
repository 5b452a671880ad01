-- Each user's rules as one Sieve script (issue 34), run by the ingest pipeline on every mail
-- that reaches them. At most 64 KB, as the API refuses larger ones.
CREATE TABLE "sieve_scripts" (
    "user_id" INTEGER NOT NULL,
    "script" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sieve_scripts_pkey" PRIMARY KEY ("user_id"),
    CONSTRAINT "sieve_scripts_script_size_check" CHECK (octet_length("script") <= 65536)
);
ALTER TABLE "sieve_scripts" ADD CONSTRAINT "sieve_scripts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
