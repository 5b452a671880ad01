-- Folder names unique per user whatever their case and surrounding space (issue 34): "Work" and
-- "work " were two folders a client could not tell apart. Names that already clash keep the first
-- folder's, the others get their id added.
UPDATE "mailboxes" AS m SET "name" = m."name" || ' (' || m."id" || ')'
 WHERE EXISTS (
   SELECT 1 FROM "mailboxes" AS o
    WHERE o."user_id" = m."user_id" AND lower(btrim(o."name")) = lower(btrim(m."name")) AND o."id" < m."id"
 );
CREATE UNIQUE INDEX "mailboxes_user_id_folded_name_key" ON "mailboxes" ("user_id", lower(btrim("name")));
