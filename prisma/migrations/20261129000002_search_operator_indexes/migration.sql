-- from: matches the sender's name as well as the address: with no index on the name, the
-- OR of the two could use neither and scanned every mail of the user.
CREATE INDEX "mails_from_name_trgm_idx" ON "mails" USING GIN ("from_name" gin_trgm_ops);

-- to: matches a To or Cc recipient in the text of the stored JSON arrays; these indexes
-- answer a recipient in few mails (or none) without reading the user's mails one by one.
CREATE INDEX "mails_to_trgm_idx" ON "mails" USING GIN (("to_addresses"::text) gin_trgm_ops);
CREATE INDEX "mails_cc_trgm_idx" ON "mails" USING GIN (("cc_addresses"::text) gin_trgm_ops);
