-- The database the "open" workload of bench/startup opens: made once, by
-- the default build, before anything is measured.
CREATE TABLE kv(k TEXT PRIMARY KEY, v TEXT NOT NULL, updated INTEGER);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
INSERT INTO kv SELECT printf('k%04d', i), hex(i * 2654435761 % 4294967296), i * 60 FROM n;
CREATE INDEX kv_updated ON kv(updated);
