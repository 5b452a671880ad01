-- The blob collector asks, for each blob it may remove, whether anything refers to it: a
-- mail's EML, or an attachment of a send or a draft. A hash index answers the probe of
-- mails with a small entry per mail (a btree would keep each 64-character key).
CREATE INDEX "mails_storage_key_idx" ON "mails" USING HASH ("storage_key");
-- Attachments are named inside a send's request and a draft's content: GIN indexes on just
-- their attachment lists answer whether one contains {"storageKey": key}.
CREATE INDEX "outbound_sends_attachments_idx" ON "outbound_sends" USING GIN (("request" -> 'attachments') jsonb_path_ops);
CREATE INDEX "drafts_attachments_idx" ON "drafts" USING GIN (("content" -> 'attachments') jsonb_path_ops);
