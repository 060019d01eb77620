-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "message" TEXT,
ADD COLUMN     "personId" INTEGER,
ALTER COLUMN "channelId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "AccountProfile" (
    "personId" INTEGER NOT NULL,
    "reports" TEXT NOT NULL DEFAULT 'monthly',
    "nagPeriod" INTEGER NOT NULL DEFAULT 0,
    "tz" TEXT NOT NULL DEFAULT 'UTC',
    "nextReportAt" TIMESTAMP(3),
    "nextNagAt" TIMESTAMP(3),

    CONSTRAINT "AccountProfile_pkey" PRIMARY KEY ("personId")
);

-- CreateIndex
CREATE INDEX "AccountProfile_nextReportAt_idx" ON "AccountProfile"("nextReportAt");

-- CreateIndex
CREATE INDEX "AccountProfile_nextNagAt_idx" ON "AccountProfile"("nextNagAt");

-- CreateIndex
CREATE INDEX "Notification_personId_id_idx" ON "Notification"("personId", "id");

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccountProfile" ADD CONSTRAINT "AccountProfile_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("ID") ON DELETE CASCADE ON UPDATE CASCADE;
