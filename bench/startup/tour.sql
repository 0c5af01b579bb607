-- The "tour" workload of bench/startup: a short run of the sqlite3 shell
-- on an in-memory database that touches many features once (schema,
-- inserts, indexes, joins, aggregates, window functions, CTEs, JSON,
-- dates, triggers, views, savepoints, the planner, integrity check,
-- shell dot-commands) and finishes in milliseconds.
.headers on
.mode column
PRAGMA foreign_keys = ON;
CREATE TABLE city(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, country TEXT);
CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT NOT NULL, born TEXT,
                    city INTEGER REFERENCES city(id), score REAL DEFAULT 0);
CREATE TABLE visit(person INTEGER REFERENCES person(id), city INTEGER, day TEXT, note TEXT);
CREATE TABLE audit(at INTEGER, what TEXT);
CREATE TRIGGER person_ins AFTER INSERT ON person BEGIN
  INSERT INTO audit VALUES ((SELECT count(*) FROM audit), 'person ' || NEW.name);
END;
BEGIN;
INSERT INTO city(name, country) VALUES ('Brest', 'FR'), ('Cork', 'IE'), ('Delft', 'NL'),
  ('Essen', 'DE'), ('Faro', 'PT'), ('Genk', 'BE'), ('Lund', 'SE'), ('Oulu', 'FI');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO person(name, born, city, score)
  SELECT printf('p%03d', i), date('1970-01-01', '+' || (i * 97 % 15000) || ' days'),
         1 + i % 8, (i * 37 % 101) / 10.0 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
INSERT INTO visit SELECT 1 + i % 200, 1 + i * 7 % 8,
  strftime('%Y-%m-%d', '2024-01-01', '+' || (i % 366) || ' days'),
  json_object('n', i, 'tags', json_array('a', i % 3)) FROM n;
COMMIT;
CREATE INDEX visit_person ON visit(person, day);
CREATE INDEX person_city ON person(city);
CREATE VIEW busy AS SELECT p.name, count(*) AS visits FROM person p JOIN visit v ON v.person = p.id GROUP BY p.id;
ANALYZE;
SELECT c.name, count(p.id) AS people, round(avg(p.score), 2) AS score
  FROM city c LEFT JOIN person p ON p.city = c.id GROUP BY c.id ORDER BY people DESC, c.name LIMIT 4;
SELECT name, visits, rank() OVER (ORDER BY visits DESC, name) AS r FROM busy ORDER BY r LIMIT 3;
SELECT strftime('%m', day) AS month, count(*), sum(json_extract(note, '$.n')) FROM visit GROUP BY month ORDER BY month LIMIT 3;
SELECT name, born FROM person WHERE born LIKE '198%' AND name GLOB 'p0*' ORDER BY born LIMIT 3;
SELECT group_concat(name, ','), upper(substr(country, 1, 1)), length(hex(randomblob(4))) > 0 FROM city GROUP BY country ORDER BY 2 LIMIT 2;
SELECT count(*) FROM visit WHERE city IN (SELECT id FROM city WHERE country IN ('FR', 'DE')) AND day BETWEEN '2024-03-01' AND '2024-06-30';
SAVEPOINT s;
UPDATE person SET score = score * 1.1 WHERE id IN (SELECT person FROM visit WHERE note ->> '$.n' > 550);
DELETE FROM visit WHERE json_extract(note, '$.tags[1]') = 2;
ROLLBACK TO s;
RELEASE s;
EXPLAIN QUERY PLAN SELECT * FROM visit WHERE person = 5 ORDER BY day;
SELECT typeof(1.5), typeof(x'00'), coalesce(NULL, 'x'), iif(1, 'y', 'n'), instr('abc', 'c'), replace('aXb', 'X', '-'), trim('  t  '), abs(-3), max(1, 2), quote('it''s');
SELECT count(*) FROM audit;
PRAGMA integrity_check;
.schema city
.tables
