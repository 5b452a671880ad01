-- Bounces (issue 32). What became of each recipient of a send, once something did: a 5xx during
-- delivery or a DSN coming back (bounced), a 4.x.x DSN (delayed), an address on the office's
-- suppression list (suppressed). A recipient without a row has its send's status.
CREATE TABLE "outbound_send_recipients" (
    "send_id" BIGINT NOT NULL,
    "address" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "diagnostic" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbound_send_recipients_pkey" PRIMARY KEY ("send_id", "address"),
    CONSTRAINT "outbound_send_recipients_status_check" CHECK ("status" IN ('delayed', 'bounced', 'suppressed'))
);
ALTER TABLE "outbound_send_recipients" ADD CONSTRAINT "outbound_send_recipients_send_id_fkey" FOREIGN KEY ("send_id") REFERENCES "outbound_sends"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Addresses an office no longer sends to: a hard bounce puts them here, an admin takes them off.
CREATE TABLE "suppressions" (
    "id" BIGSERIAL NOT NULL,
    "office_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "send_id" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suppressions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "suppressions_office_id_address_key" ON "suppressions"("office_id", "address");
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_office_id_fkey" FOREIGN KEY ("office_id") REFERENCES "offices"("id") ON DELETE CASCADE ON UPDATE CASCADE;
