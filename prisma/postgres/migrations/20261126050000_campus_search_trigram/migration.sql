-- Campus search (browse `q`) on PostgreSQL: pg_trgm answers LIKE '%word%' from a GIN index.
-- Written by hand (Prisma's schema has no expression indexes): the expressions must match
-- src/campus/postgres-search.ts `searchExpression` exactly (test/campus/search.test.ts checks).
-- pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "Person_search_trgm" ON "Person" USING gin ((lower(COALESCE("FirstName", '') || E'\n' || COALESCE("LastName", '') || E'\n' || COALESCE("Username", ''))) gin_trgm_ops);
CREATE INDEX "Section_search_trgm" ON "Section" USING gin ((lower(COALESCE("Title", '') || E'\n' || COALESCE("Handle", '') || E'\n' || COALESCE("Code", ''))) gin_trgm_ops);
CREATE INDEX "Course_search_trgm" ON "Course" USING gin ((lower(COALESCE("Title", '') || E'\n' || COALESCE("Handle", '') || E'\n' || COALESCE("Code", ''))) gin_trgm_ops);
CREATE INDEX "Content_search_trgm" ON "Content" USING gin ((lower(COALESCE("Title", '') || E'\n' || COALESCE("Handle", ''))) gin_trgm_ops);
CREATE INDEX "Group_search_trgm" ON "Group" USING gin ((lower(COALESCE("Name", '') || E'\n' || COALESCE("Handle", ''))) gin_trgm_ops);
CREATE INDEX "Location_search_trgm" ON "Location" USING gin ((lower(COALESCE("Title", '') || E'\n' || COALESCE("Handle", ''))) gin_trgm_ops);
CREATE INDEX "Term_search_trgm" ON "Term" USING gin ((lower(COALESCE("Title", '') || E'\n' || COALESCE("Handle", ''))) gin_trgm_ops);
