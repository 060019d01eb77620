-- CreateTable
CREATE TABLE "ProjectMember" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "personId" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ProjectMember_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProjectMember_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProjectInvitation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "invitedById" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "acceptedAt" DATETIME,
    CONSTRAINT "ProjectInvitation_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AccountToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "purpose" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "data" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    CONSTRAINT "AccountToken_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TotpFactor" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "secret" TEXT NOT NULL,
    "confirmedAt" DATETIME,
    "lastStep" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TotpFactor_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RecoveryCode" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "codeHash" TEXT NOT NULL,
    "usedAt" DATETIME,
    CONSTRAINT "RecoveryCode_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SecurityKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "counter" INTEGER NOT NULL DEFAULT 0,
    "transports" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    CONSTRAINT "SecurityKey_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorPersonId" INTEGER,
    "actorLabel" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetKind" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "targetName" TEXT NOT NULL DEFAULT '',
    "detail" TEXT,
    CONSTRAINT "AuditEntry_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_CampusSession" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "TokenHash" TEXT NOT NULL,
    "PersonID" INTEGER NOT NULL,
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "LastRequest" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "Kind" TEXT NOT NULL DEFAULT 'token',
    "ExpiresAt" DATETIME,
    "UserAgent" TEXT,
    "Address" TEXT,
    CONSTRAINT "CampusSession_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_CampusSession" ("Created", "ID", "LastRequest", "PersonID", "TokenHash") SELECT "Created", "ID", "LastRequest", "PersonID", "TokenHash" FROM "CampusSession";
DROP TABLE "CampusSession";
ALTER TABLE "new_CampusSession" RENAME TO "CampusSession";
CREATE UNIQUE INDEX "CampusSession_TokenHash_key" ON "CampusSession"("TokenHash");
CREATE INDEX "CampusSession_PersonID_idx" ON "CampusSession"("PersonID");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ProjectMember_personId_idx" ON "ProjectMember"("personId");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectMember_projectId_personId_key" ON "ProjectMember"("projectId", "personId");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectInvitation_tokenHash_key" ON "ProjectInvitation"("tokenHash");

-- CreateIndex
CREATE INDEX "ProjectInvitation_projectId_idx" ON "ProjectInvitation"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "AccountToken_tokenHash_key" ON "AccountToken"("tokenHash");

-- CreateIndex
CREATE INDEX "AccountToken_personId_purpose_idx" ON "AccountToken"("personId", "purpose");

-- CreateIndex
CREATE UNIQUE INDEX "TotpFactor_personId_key" ON "TotpFactor"("personId");

-- CreateIndex
CREATE INDEX "RecoveryCode_personId_idx" ON "RecoveryCode"("personId");

-- CreateIndex
CREATE UNIQUE INDEX "SecurityKey_credentialId_key" ON "SecurityKey"("credentialId");

-- CreateIndex
CREATE INDEX "SecurityKey_personId_idx" ON "SecurityKey"("personId");

-- CreateIndex
CREATE INDEX "AuditEntry_projectId_id_idx" ON "AuditEntry"("projectId", "id");
