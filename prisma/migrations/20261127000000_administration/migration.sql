-- Administration: roles and states of users, domains, addresses (primary, alias, group), groups,
-- quotas kept as a counter, two-factor sign-in and an append-only audit log.

CREATE TYPE "user_role" AS ENUM ('user', 'admin');
CREATE TYPE "user_state" AS ENUM ('active', 'disabled');
CREATE TYPE "address_kind" AS ENUM ('primary', 'alias', 'group');

ALTER TABLE "offices" ADD COLUMN "require_totp" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "users"
    ADD COLUMN "role" "user_role" NOT NULL DEFAULT 'user',
    ADD COLUMN "state" "user_state" NOT NULL DEFAULT 'active',
    ADD COLUMN "password_change_required" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "used_bytes" BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN "quota_bytes" BIGINT,
    ADD COLUMN "totp_secret" TEXT,
    ADD COLUMN "totp_enabled_at" TIMESTAMPTZ(3);

CREATE TABLE "domains" (
    "id" SERIAL NOT NULL,
    "office_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "domains_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "domains_name_key" ON "domains"("name");
CREATE INDEX "domains_office_id_idx" ON "domains"("office_id");
ALTER TABLE "domains" ADD CONSTRAINT "domains_office_id_fkey" FOREIGN KEY ("office_id") REFERENCES "offices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "groups" (
    "id" SERIAL NOT NULL,
    "office_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "groups_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "groups_office_id_idx" ON "groups"("office_id");
ALTER TABLE "groups" ADD CONSTRAINT "groups_office_id_fkey" FOREIGN KEY ("office_id") REFERENCES "offices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "addresses" (
    "address" TEXT NOT NULL,
    "office_id" INTEGER NOT NULL,
    "kind" "address_kind" NOT NULL,
    "user_id" INTEGER,
    "group_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "addresses_pkey" PRIMARY KEY ("address"),
    CONSTRAINT "addresses_one_owner" CHECK (
        ("kind" = 'group' AND "group_id" IS NOT NULL AND "user_id" IS NULL)
        OR ("kind" <> 'group' AND "user_id" IS NOT NULL AND "group_id" IS NULL)
    )
);
CREATE INDEX "addresses_user_id_idx" ON "addresses"("user_id");
CREATE INDEX "addresses_group_id_idx" ON "addresses"("group_id");
CREATE INDEX "addresses_office_id_idx" ON "addresses"("office_id");
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_office_id_fkey" FOREIGN KEY ("office_id") REFERENCES "offices"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "group_members" (
    "id" SERIAL NOT NULL,
    "group_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "member_group_id" INTEGER,

    CONSTRAINT "group_members_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "group_members_one_member" CHECK (("user_id" IS NULL) <> ("member_group_id" IS NULL)),
    CONSTRAINT "group_members_not_itself" CHECK ("member_group_id" IS DISTINCT FROM "group_id")
);
CREATE UNIQUE INDEX "group_members_user_key" ON "group_members"("group_id", "user_id") WHERE "user_id" IS NOT NULL;
CREATE UNIQUE INDEX "group_members_group_key" ON "group_members"("group_id", "member_group_id") WHERE "member_group_id" IS NOT NULL;
CREATE INDEX "group_members_user_id_idx" ON "group_members"("user_id");
CREATE INDEX "group_members_member_group_id_idx" ON "group_members"("member_group_id");
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_member_group_id_fkey" FOREIGN KEY ("member_group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "totp_recovery_codes" (
    "user_id" INTEGER NOT NULL,
    "code_hash" TEXT NOT NULL,

    CONSTRAINT "totp_recovery_codes_pkey" PRIMARY KEY ("user_id", "code_hash")
);
ALTER TABLE "totp_recovery_codes" ADD CONSTRAINT "totp_recovery_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "office_id" INTEGER,
    "actor_user_id" INTEGER,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "client_address" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_events_office_id_id_idx" ON "audit_events"("office_id", "id" DESC);
CREATE INDEX "audit_events_office_id_action_id_idx" ON "audit_events"("office_id", "action", "id" DESC);

-- Append-only: what happened stays as it was recorded (TRUNCATE, an operator's act, is not refused).
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP;
END;
$$;
CREATE TRIGGER "audit_events_no_change" BEFORE UPDATE OR DELETE ON "audit_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();

-- The domains and addresses of what exists.
INSERT INTO "domains" ("office_id", "name") SELECT "id", lower("domain") FROM "offices";
INSERT INTO "addresses" ("address", "office_id", "kind", "user_id") SELECT lower("email"), "office_id", 'primary', "id" FROM "users";

-- A user's usage follows every write to mails, in the statement that makes it: the bytes of
-- live mail, one update per user per statement, users in id order so two statements cannot deadlock.
CREATE FUNCTION "user_usage_follows_mails"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta RECORD;
BEGIN
    IF TG_OP = 'INSERT' THEN
        FOR delta IN
            SELECT "user_id", sum("size") AS bytes FROM new_rows WHERE "deleted_at" IS NULL GROUP BY "user_id" ORDER BY "user_id"
        LOOP
            UPDATE "users" SET "used_bytes" = "used_bytes" + delta.bytes WHERE "id" = delta."user_id";
        END LOOP;
    ELSIF TG_OP = 'DELETE' THEN
        FOR delta IN
            SELECT "user_id", sum("size") AS bytes FROM old_rows WHERE "deleted_at" IS NULL GROUP BY "user_id" ORDER BY "user_id"
        LOOP
            UPDATE "users" SET "used_bytes" = greatest("used_bytes" - delta.bytes, 0) WHERE "id" = delta."user_id";
        END LOOP;
    ELSE
        FOR delta IN
            SELECT "user_id", sum(bytes) AS bytes FROM (
                SELECT "user_id", "size"::bigint AS bytes FROM new_rows WHERE "deleted_at" IS NULL
                UNION ALL
                SELECT "user_id", -"size"::bigint FROM old_rows WHERE "deleted_at" IS NULL
            ) AS changes
            GROUP BY "user_id" HAVING sum(bytes) <> 0 ORDER BY "user_id"
        LOOP
            UPDATE "users" SET "used_bytes" = greatest("used_bytes" + delta.bytes, 0) WHERE "id" = delta."user_id";
        END LOOP;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "mails_insert_usage" AFTER INSERT ON "mails"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_usage_follows_mails"();
CREATE TRIGGER "mails_update_usage" AFTER UPDATE ON "mails"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_usage_follows_mails"();
CREATE TRIGGER "mails_delete_usage" AFTER DELETE ON "mails"
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_usage_follows_mails"();

UPDATE "users" u SET "used_bytes" = s.bytes
  FROM (SELECT "user_id", sum("size") AS bytes FROM "mails" WHERE "deleted_at" IS NULL GROUP BY "user_id") AS s
 WHERE s."user_id" = u."id";
