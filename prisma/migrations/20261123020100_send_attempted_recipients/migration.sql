-- Messages of a send whose SMTP transaction was started: one started but not recorded as
-- delivered may have reached the provider before a crash, so a retry asks it first.
ALTER TABLE "outbound_sends" ADD COLUMN "attempted_to" TEXT[] DEFAULT ARRAY[]::TEXT[];
