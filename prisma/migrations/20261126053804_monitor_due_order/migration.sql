-- DropIndex
DROP INDEX "Check_alertAfter_idx";

-- CreateIndex
CREATE INDEX "Check_alertAfter_id_idx" ON "Check"("alertAfter", "id");
