-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "apiKeyHash" TEXT,
    "apiKeyReadonlyHash" TEXT,
    "pingKeyHash" TEXT,
    "badgeKeyHash" TEXT NOT NULL,
    "pingLogLimit" INTEGER NOT NULL DEFAULT 100,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Check" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "code" TEXT NOT NULL,
    "uniqueKey" TEXT NOT NULL,
    "badgeKey" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "slug" TEXT NOT NULL DEFAULT '',
    "tags" TEXT NOT NULL DEFAULT '',
    "desc" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL DEFAULT 'simple',
    "timeout" INTEGER NOT NULL DEFAULT 86400,
    "grace" INTEGER NOT NULL DEFAULT 3600,
    "schedule" TEXT NOT NULL DEFAULT '* * * * *',
    "tz" TEXT NOT NULL DEFAULT 'UTC',
    "methods" TEXT NOT NULL DEFAULT '',
    "manualResume" BOOLEAN NOT NULL DEFAULT false,
    "startKw" TEXT NOT NULL DEFAULT '',
    "successKw" TEXT NOT NULL DEFAULT '',
    "failureKw" TEXT NOT NULL DEFAULT '',
    "filterSubject" BOOLEAN NOT NULL DEFAULT false,
    "filterBody" BOOLEAN NOT NULL DEFAULT false,
    "filterHttpBody" BOOLEAN NOT NULL DEFAULT false,
    "filterDefaultFail" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'new',
    "nPings" INTEGER NOT NULL DEFAULT 0,
    "lastPing" DATETIME,
    "lastStart" DATETIME,
    "lastStartRid" TEXT,
    "lastDurationMs" INTEGER,
    "alertAfter" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Check_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Ping" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "checkId" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "kind" TEXT NOT NULL,
    "scheme" TEXT NOT NULL,
    "remoteAddr" TEXT,
    "method" TEXT NOT NULL,
    "ua" TEXT NOT NULL,
    "rid" TEXT,
    "exitStatus" INTEGER,
    "body" BLOB,
    CONSTRAINT "Ping_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Flip" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "checkId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "oldStatus" TEXT NOT NULL,
    "newStatus" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "processed" DATETIME,
    CONSTRAINT "Flip_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Channel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "code" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Channel_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CheckChannel" (
    "checkId" INTEGER NOT NULL,
    "channelId" INTEGER NOT NULL,

    PRIMARY KEY ("checkId", "channelId"),
    CONSTRAINT "CheckChannel_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckChannel_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Project_apiKeyHash_key" ON "Project"("apiKeyHash");

-- CreateIndex
CREATE UNIQUE INDEX "Project_apiKeyReadonlyHash_key" ON "Project"("apiKeyReadonlyHash");

-- CreateIndex
CREATE UNIQUE INDEX "Project_pingKeyHash_key" ON "Project"("pingKeyHash");

-- CreateIndex
CREATE UNIQUE INDEX "Check_code_key" ON "Check"("code");

-- CreateIndex
CREATE UNIQUE INDEX "Check_uniqueKey_key" ON "Check"("uniqueKey");

-- CreateIndex
CREATE UNIQUE INDEX "Check_badgeKey_key" ON "Check"("badgeKey");

-- CreateIndex
CREATE INDEX "Check_projectId_idx" ON "Check"("projectId");

-- CreateIndex
CREATE INDEX "Check_projectId_slug_idx" ON "Check"("projectId", "slug");

-- CreateIndex
CREATE INDEX "Check_alertAfter_idx" ON "Check"("alertAfter");

-- CreateIndex
CREATE UNIQUE INDEX "Ping_checkId_n_key" ON "Ping"("checkId", "n");

-- CreateIndex
CREATE INDEX "Flip_checkId_createdAt_idx" ON "Flip"("checkId", "createdAt");

-- CreateIndex
CREATE INDEX "Flip_processed_idx" ON "Flip"("processed");

-- CreateIndex
CREATE UNIQUE INDEX "Channel_code_key" ON "Channel"("code");

-- CreateIndex
CREATE INDEX "Channel_projectId_idx" ON "Channel"("projectId");

-- CreateIndex
CREATE INDEX "CheckChannel_channelId_idx" ON "CheckChannel"("channelId");
