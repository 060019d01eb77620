-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "statusSlug" TEXT,
ADD COLUMN     "statusTags" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE UNIQUE INDEX "Project_statusSlug_key" ON "Project"("statusSlug");
