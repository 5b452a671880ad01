-- A bulk change recounts every thread it touches (100,000 mails marked read rewrite some
-- 33,000 summaries): with the default thresholds (a fifth of the table dead) the list of
-- conversations then walked dead rows until autovacuum came, 0.61x the flat list's rate
-- against 0.80x right after a VACUUM. Vacuum the summaries when a hundredth is dead.
ALTER TABLE "threads" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
