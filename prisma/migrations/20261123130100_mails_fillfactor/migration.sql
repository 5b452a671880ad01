-- Room on every page of mails for the new version of a row whose flags change: seen,
-- flagged, answered are in no index, so such an update stays on its page (a HOT update)
-- and touches no index. Full pages made marking 100,000 mails read rewrite every index
-- entry of each (the trigram and thread-subject indexes too): 6.6 s. Pages written from
-- now on keep the room; VACUUM FULL mails gives it to existing ones.
ALTER TABLE "mails" SET (fillfactor = 85);
