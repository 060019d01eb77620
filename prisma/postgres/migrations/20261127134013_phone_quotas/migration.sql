-- AlterTable
ALTER TABLE "AccountProfile" ADD COLUMN     "callLimitNoticeAt" TIMESTAMP(3),
ADD COLUMN     "callsSent" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastCallAt" TIMESTAMP(3),
ADD COLUMN     "lastSmsAt" TIMESTAMP(3),
ADD COLUMN     "smsLimitNoticeAt" TIMESTAMP(3),
ADD COLUMN     "smsSent" INTEGER NOT NULL DEFAULT 0;
