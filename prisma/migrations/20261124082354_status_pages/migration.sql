-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Project" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "apiKeyHash" TEXT,
    "apiKeyReadonlyHash" TEXT,
    "pingKeyHash" TEXT,
    "badgeKeyHash" TEXT NOT NULL,
    "pingLogLimit" INTEGER NOT NULL DEFAULT 100,
    "nagPeriod" INTEGER,
    "nagNextAt" DATETIME,
    "statusSlug" TEXT,
    "statusTags" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Project" ("apiKeyHash", "apiKeyReadonlyHash", "badgeKeyHash", "createdAt", "id", "nagNextAt", "nagPeriod", "name", "pingKeyHash", "pingLogLimit") SELECT "apiKeyHash", "apiKeyReadonlyHash", "badgeKeyHash", "createdAt", "id", "nagNextAt", "nagPeriod", "name", "pingKeyHash", "pingLogLimit" FROM "Project";
DROP TABLE "Project";
ALTER TABLE "new_Project" RENAME TO "Project";
CREATE UNIQUE INDEX "Project_apiKeyHash_key" ON "Project"("apiKeyHash");
CREATE UNIQUE INDEX "Project_apiKeyReadonlyHash_key" ON "Project"("apiKeyReadonlyHash");
CREATE UNIQUE INDEX "Project_pingKeyHash_key" ON "Project"("pingKeyHash");
CREATE UNIQUE INDEX "Project_statusSlug_key" ON "Project"("statusSlug");
CREATE INDEX "Project_nagNextAt_idx" ON "Project"("nagNextAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
