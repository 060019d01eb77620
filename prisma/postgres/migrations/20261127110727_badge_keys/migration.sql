-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "badgeKey" TEXT,
ADD COLUMN     "badgeSigningKey" TEXT;

-- CreateTable
CREATE TABLE "InstallationSecret" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InstallationSecret_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "Project_badgeKey_key" ON "Project"("badgeKey");
