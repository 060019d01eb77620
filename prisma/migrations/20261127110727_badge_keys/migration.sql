-- AlterTable
ALTER TABLE "Project" ADD COLUMN "badgeKey" TEXT;
ALTER TABLE "Project" ADD COLUMN "badgeSigningKey" TEXT;

-- CreateTable
CREATE TABLE "InstallationSecret" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "Project_badgeKey_key" ON "Project"("badgeKey");
