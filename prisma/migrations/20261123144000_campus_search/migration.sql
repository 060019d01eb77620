-- Full-text search over the campus records' searched fields (SEARCH_FIELDS in
-- src/campus/search.ts; sqlite-search.ts holds the slots below). One FTS5 table
-- for every kind; the trigram tokenizer indexes substrings, so a quoted phrase of 3+ characters
-- matches as LIKE '%word%' did, without a scan. A row's key is its table slot and ID packed
-- into the rowid (slot * 2^32 + ID), so triggers and queries find it by rowid, never by a scan.
-- The fields are joined with a newline: a search word has no whitespace, so it cannot match
-- across two fields. Prisma does not model virtual tables: src/db/schema-engine.ts lists this
-- one and its shadow tables as external, so a schema diff leaves them alone
-- (test/db/migrations.test.ts proves the diff stays empty). A later
-- migration that rebuilds one of these tables (Prisma's RedefineTables on SQLite) drops its
-- triggers: recreate them there (test/campus/search.test.ts checks they exist).
CREATE VIRTUAL TABLE "CampusSearch" USING fts5("Body", tokenize = 'trigram');

-- Person (slot 1): FirstName, LastName, Username
INSERT INTO "CampusSearch" ("rowid", "Body") SELECT 1 * 4294967296 + r."ID", coalesce(r."FirstName", '') || char(10) || coalesce(r."LastName", '') || char(10) || coalesce(r."Username", '') FROM "Person" AS r;
CREATE TRIGGER "Person_search_insert" AFTER INSERT ON "Person" BEGIN
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (1 * 4294967296 + new."ID", coalesce(new."FirstName", '') || char(10) || coalesce(new."LastName", '') || char(10) || coalesce(new."Username", ''));
END;
CREATE TRIGGER "Person_search_update" AFTER UPDATE OF "FirstName", "LastName", "Username", "ID" ON "Person" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 1 * 4294967296 + old."ID";
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (1 * 4294967296 + new."ID", coalesce(new."FirstName", '') || char(10) || coalesce(new."LastName", '') || char(10) || coalesce(new."Username", ''));
END;
CREATE TRIGGER "Person_search_delete" AFTER DELETE ON "Person" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 1 * 4294967296 + old."ID";
END;

-- Section (slot 2): Title, Handle, Code
INSERT INTO "CampusSearch" ("rowid", "Body") SELECT 2 * 4294967296 + r."ID", coalesce(r."Title", '') || char(10) || coalesce(r."Handle", '') || char(10) || coalesce(r."Code", '') FROM "Section" AS r;
CREATE TRIGGER "Section_search_insert" AFTER INSERT ON "Section" BEGIN
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (2 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", '') || char(10) || coalesce(new."Code", ''));
END;
CREATE TRIGGER "Section_search_update" AFTER UPDATE OF "Title", "Handle", "Code", "ID" ON "Section" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 2 * 4294967296 + old."ID";
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (2 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", '') || char(10) || coalesce(new."Code", ''));
END;
CREATE TRIGGER "Section_search_delete" AFTER DELETE ON "Section" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 2 * 4294967296 + old."ID";
END;

-- Course (slot 3): Title, Handle, Code
INSERT INTO "CampusSearch" ("rowid", "Body") SELECT 3 * 4294967296 + r."ID", coalesce(r."Title", '') || char(10) || coalesce(r."Handle", '') || char(10) || coalesce(r."Code", '') FROM "Course" AS r;
CREATE TRIGGER "Course_search_insert" AFTER INSERT ON "Course" BEGIN
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (3 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", '') || char(10) || coalesce(new."Code", ''));
END;
CREATE TRIGGER "Course_search_update" AFTER UPDATE OF "Title", "Handle", "Code", "ID" ON "Course" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 3 * 4294967296 + old."ID";
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (3 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", '') || char(10) || coalesce(new."Code", ''));
END;
CREATE TRIGGER "Course_search_delete" AFTER DELETE ON "Course" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 3 * 4294967296 + old."ID";
END;

-- Content (slot 4): Title, Handle
INSERT INTO "CampusSearch" ("rowid", "Body") SELECT 4 * 4294967296 + r."ID", coalesce(r."Title", '') || char(10) || coalesce(r."Handle", '') FROM "Content" AS r;
CREATE TRIGGER "Content_search_insert" AFTER INSERT ON "Content" BEGIN
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (4 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", ''));
END;
CREATE TRIGGER "Content_search_update" AFTER UPDATE OF "Title", "Handle", "ID" ON "Content" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 4 * 4294967296 + old."ID";
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (4 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", ''));
END;
CREATE TRIGGER "Content_search_delete" AFTER DELETE ON "Content" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 4 * 4294967296 + old."ID";
END;

-- Group (slot 5): Name, Handle
INSERT INTO "CampusSearch" ("rowid", "Body") SELECT 5 * 4294967296 + r."ID", coalesce(r."Name", '') || char(10) || coalesce(r."Handle", '') FROM "Group" AS r;
CREATE TRIGGER "Group_search_insert" AFTER INSERT ON "Group" BEGIN
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (5 * 4294967296 + new."ID", coalesce(new."Name", '') || char(10) || coalesce(new."Handle", ''));
END;
CREATE TRIGGER "Group_search_update" AFTER UPDATE OF "Name", "Handle", "ID" ON "Group" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 5 * 4294967296 + old."ID";
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (5 * 4294967296 + new."ID", coalesce(new."Name", '') || char(10) || coalesce(new."Handle", ''));
END;
CREATE TRIGGER "Group_search_delete" AFTER DELETE ON "Group" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 5 * 4294967296 + old."ID";
END;

-- Location (slot 6): Title, Handle
INSERT INTO "CampusSearch" ("rowid", "Body") SELECT 6 * 4294967296 + r."ID", coalesce(r."Title", '') || char(10) || coalesce(r."Handle", '') FROM "Location" AS r;
CREATE TRIGGER "Location_search_insert" AFTER INSERT ON "Location" BEGIN
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (6 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", ''));
END;
CREATE TRIGGER "Location_search_update" AFTER UPDATE OF "Title", "Handle", "ID" ON "Location" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 6 * 4294967296 + old."ID";
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (6 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", ''));
END;
CREATE TRIGGER "Location_search_delete" AFTER DELETE ON "Location" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 6 * 4294967296 + old."ID";
END;

-- Term (slot 7): Title, Handle
INSERT INTO "CampusSearch" ("rowid", "Body") SELECT 7 * 4294967296 + r."ID", coalesce(r."Title", '') || char(10) || coalesce(r."Handle", '') FROM "Term" AS r;
CREATE TRIGGER "Term_search_insert" AFTER INSERT ON "Term" BEGIN
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (7 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", ''));
END;
CREATE TRIGGER "Term_search_update" AFTER UPDATE OF "Title", "Handle", "ID" ON "Term" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 7 * 4294967296 + old."ID";
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (7 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", ''));
END;
CREATE TRIGGER "Term_search_delete" AFTER DELETE ON "Term" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 7 * 4294967296 + old."ID";
END;
