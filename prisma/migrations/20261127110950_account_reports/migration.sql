-- CreateTable
CREATE TABLE "AccountProfile" (
    "personId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "reports" TEXT NOT NULL DEFAULT 'monthly',
    "nagPeriod" INTEGER NOT NULL DEFAULT 0,
    "tz" TEXT NOT NULL DEFAULT 'UTC',
    "nextReportAt" DATETIME,
    "nextNagAt" DATETIME,
    CONSTRAINT "AccountProfile_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Notification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "code" TEXT NOT NULL,
    "channelId" INTEGER,
    "personId" INTEGER,
    "message" TEXT,
    "checkId" INTEGER,
    "flipId" INTEGER,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "eventAt" DATETIME NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL,
    "sentAt" DATETIME,
    "lastAttemptAt" DATETIME,
    "durationMs" INTEGER,
    CONSTRAINT "Notification_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_flipId_fkey" FOREIGN KEY ("flipId") REFERENCES "Flip" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Notification" ("attempts", "channelId", "checkId", "code", "createdAt", "durationMs", "eventAt", "flipId", "id", "lastAttemptAt", "lastError", "nextAttemptAt", "reason", "sentAt", "state", "status") SELECT "attempts", "channelId", "checkId", "code", "createdAt", "durationMs", "eventAt", "flipId", "id", "lastAttemptAt", "lastError", "nextAttemptAt", "reason", "sentAt", "state", "status" FROM "Notification";
DROP TABLE "Notification";
ALTER TABLE "new_Notification" RENAME TO "Notification";
CREATE UNIQUE INDEX "Notification_code_key" ON "Notification"("code");
CREATE INDEX "Notification_state_nextAttemptAt_idx" ON "Notification"("state", "nextAttemptAt");
CREATE INDEX "Notification_channelId_id_idx" ON "Notification"("channelId", "id");
CREATE INDEX "Notification_checkId_id_idx" ON "Notification"("checkId", "id");
CREATE INDEX "Notification_flipId_idx" ON "Notification"("flipId");
CREATE INDEX "Notification_personId_id_idx" ON "Notification"("personId", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "AccountProfile_nextReportAt_idx" ON "AccountProfile"("nextReportAt");

-- CreateIndex
CREATE INDEX "AccountProfile_nextNagAt_idx" ON "AccountProfile"("nextNagAt");
