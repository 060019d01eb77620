-- AlterTable
ALTER TABLE "Channel" ADD COLUMN     "emailVerified" BOOLEAN NOT NULL DEFAULT true;
