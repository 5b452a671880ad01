-- DKIM keys of the offices' domains: outgoing mail is signed with every active key of its domain
-- (an RSA and an Ed25519 one side by side), a key keeps signing until an administrator retires it.
-- The private key is stored encrypted (AES-256-GCM under DKIM_KEY_ENCRYPTION_KEY): iv, tag and
-- ciphertext in one value, so a copy of the database alone signs nothing.

CREATE TABLE "dkim_keys" (
    "id" SERIAL NOT NULL,
    "domain_id" INTEGER NOT NULL,
    "selector" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "private_key_encrypted" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "dkim_keys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "dkim_keys_algorithm_check" CHECK ("algorithm" IN ('rsa-sha256', 'ed25519-sha256'))
);
CREATE UNIQUE INDEX "dkim_keys_domain_id_selector_key" ON "dkim_keys"("domain_id", "selector");
ALTER TABLE "dkim_keys" ADD CONSTRAINT "dkim_keys_domain_id_fkey" FOREIGN KEY ("domain_id") REFERENCES "domains"("id") ON DELETE CASCADE ON UPDATE CASCADE;
