-- Identities (issue 34): each of a user's own addresses (their primary and aliases) may carry the name
-- their mail from it shows and a signature, text and sanitized HTML. Nullable: adding them rewrites nothing.
ALTER TABLE "addresses" ADD COLUMN "display_name" TEXT;
ALTER TABLE "addresses" ADD COLUMN "signature_text" TEXT;
ALTER TABLE "addresses" ADD COLUMN "signature_html" TEXT;
