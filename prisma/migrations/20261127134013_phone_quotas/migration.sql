-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AccountProfile" (
    "personId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "reports" TEXT NOT NULL DEFAULT 'monthly',
    "nagPeriod" INTEGER NOT NULL DEFAULT 0,
    "tz" TEXT NOT NULL DEFAULT 'UTC',
    "nextReportAt" DATETIME,
    "nextNagAt" DATETIME,
    "smsSent" INTEGER NOT NULL DEFAULT 0,
    "lastSmsAt" DATETIME,
    "callsSent" INTEGER NOT NULL DEFAULT 0,
    "lastCallAt" DATETIME,
    "smsLimitNoticeAt" DATETIME,
    "callLimitNoticeAt" DATETIME,
    CONSTRAINT "AccountProfile_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_AccountProfile" ("nagPeriod", "nextNagAt", "nextReportAt", "personId", "reports", "tz") SELECT "nagPeriod", "nextNagAt", "nextReportAt", "personId", "reports", "tz" FROM "AccountProfile";
DROP TABLE "AccountProfile";
ALTER TABLE "new_AccountProfile" RENAME TO "AccountProfile";
CREATE INDEX "AccountProfile_nextReportAt_idx" ON "AccountProfile"("nextReportAt");
CREATE INDEX "AccountProfile_nextNagAt_idx" ON "AccountProfile"("nextNagAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
