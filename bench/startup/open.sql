-- The "open" workload of bench/startup: what a short command-line use of
-- sqlite3 does: open an existing database file, read its schema, look a
-- key up, count, exit. Read-only, so every run sees the same file.
SELECT v FROM kv WHERE k = 'k0042';
SELECT count(*), max(updated) FROM kv WHERE updated > 30000;
