-- AlterTable
ALTER TABLE "Project" ADD COLUMN "nagNextAt" DATETIME;
ALTER TABLE "Project" ADD COLUMN "nagPeriod" INTEGER;

-- CreateTable
CREATE TABLE "Notification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "code" TEXT NOT NULL,
    "channelId" INTEGER NOT NULL,
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
    CONSTRAINT "Notification_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_flipId_fkey" FOREIGN KEY ("flipId") REFERENCES "Flip" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Channel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "code" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "notifyDown" BOOLEAN NOT NULL DEFAULT true,
    "notifyUp" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Channel_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Channel" ("code", "createdAt", "id", "kind", "name", "projectId", "value") SELECT "code", "createdAt", "id", "kind", "name", "projectId", "value" FROM "Channel";
DROP TABLE "Channel";
ALTER TABLE "new_Channel" RENAME TO "Channel";
CREATE UNIQUE INDEX "Channel_code_key" ON "Channel"("code");
CREATE INDEX "Channel_projectId_idx" ON "Channel"("projectId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Notification_code_key" ON "Notification"("code");

-- CreateIndex
CREATE INDEX "Notification_state_nextAttemptAt_idx" ON "Notification"("state", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Notification_channelId_id_idx" ON "Notification"("channelId", "id");

-- CreateIndex
CREATE INDEX "Notification_checkId_id_idx" ON "Notification"("checkId", "id");

-- CreateIndex
CREATE INDEX "Notification_flipId_idx" ON "Notification"("flipId");

-- CreateIndex
CREATE INDEX "Project_nagNextAt_idx" ON "Project"("nagNextAt");
