-- A user's own word on a sender (issue 32): "Block sender" (block: their mail goes to Spam whatever
-- its score) or "Never spam" (allow: never put in Spam by its score). One rule per address.
CREATE TABLE "sender_rules" (
    "user_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sender_rules_pkey" PRIMARY KEY ("user_id", "address"),
    CONSTRAINT "sender_rules_rule_check" CHECK ("rule" IN ('block', 'allow'))
);
ALTER TABLE "sender_rules" ADD CONSTRAINT "sender_rules_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
