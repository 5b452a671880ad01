-- A sent mail shows what became of its recipients: its send is found by its Sent copy.
CREATE INDEX "outbound_sends_sent_mail_id_idx" ON "outbound_sends" ("sent_mail_id");
