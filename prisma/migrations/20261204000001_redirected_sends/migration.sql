-- Redirect rules (issue 34): a redirected send (request->'redirect') sends a stored message on unchanged.
-- The blob collector asks whether a blob is such a message, and a bounce coming back to a redirect's SRS
-- address finds the send it answers. Partial indexes over the redirected sends only: small, whatever
-- the number of other sends.
CREATE INDEX "outbound_sends_redirect_blob_idx" ON "outbound_sends" (("request" -> 'redirect' ->> 'storageKey')) WHERE "request" ? 'redirect';
CREATE INDEX "outbound_sends_redirect_envelope_idx" ON "outbound_sends" (lower("request" -> 'redirect' ->> 'envelopeFrom')) WHERE "request" ? 'redirect';
