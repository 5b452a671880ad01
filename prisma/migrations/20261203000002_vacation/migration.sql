-- Out-of-office replies (issue 34, RFC 3834 and RFC 5230): each user's reply and when it is on,
-- and the senders answered, so that a sender gets one reply a week at most.
CREATE TABLE "vacation_settings" (
    "user_id" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "starts_at" TIMESTAMPTZ(3),
    "ends_at" TIMESTAMPTZ(3),
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vacation_settings_pkey" PRIMARY KEY ("user_id")
);
ALTER TABLE "vacation_settings" ADD CONSTRAINT "vacation_settings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "vacation_replies" (
    "user_id" INTEGER NOT NULL,
    "sender" TEXT NOT NULL,
    "replied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vacation_replies_pkey" PRIMARY KEY ("user_id", "sender")
);
ALTER TABLE "vacation_replies" ADD CONSTRAINT "vacation_replies_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
