-- CreateTable
CREATE TABLE "CheckRecordLink" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "checkId" INTEGER NOT NULL,
    "tag" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "personId" INTEGER,
    "sectionId" INTEGER,
    "courseId" INTEGER,
    "contentId" INTEGER,
    "groupId" INTEGER,
    "locationId" INTEGER,
    "termId" INTEGER,
    CONSTRAINT "CheckRecordLink_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckRecordLink_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckRecordLink_sectionId_fkey" FOREIGN KEY ("sectionId") REFERENCES "Section" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckRecordLink_courseId_fkey" FOREIGN KEY ("courseId") REFERENCES "Course" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckRecordLink_contentId_fkey" FOREIGN KEY ("contentId") REFERENCES "Content" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckRecordLink_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Group" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckRecordLink_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "Location" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckRecordLink_termId_fkey" FOREIGN KEY ("termId") REFERENCES "Term" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "CheckRecordLink_personId_idx" ON "CheckRecordLink"("personId");

-- CreateIndex
CREATE INDEX "CheckRecordLink_sectionId_idx" ON "CheckRecordLink"("sectionId");

-- CreateIndex
CREATE INDEX "CheckRecordLink_courseId_idx" ON "CheckRecordLink"("courseId");

-- CreateIndex
CREATE INDEX "CheckRecordLink_contentId_idx" ON "CheckRecordLink"("contentId");

-- CreateIndex
CREATE INDEX "CheckRecordLink_groupId_idx" ON "CheckRecordLink"("groupId");

-- CreateIndex
CREATE INDEX "CheckRecordLink_locationId_idx" ON "CheckRecordLink"("locationId");

-- CreateIndex
CREATE INDEX "CheckRecordLink_termId_idx" ON "CheckRecordLink"("termId");

-- CreateIndex
CREATE UNIQUE INDEX "CheckRecordLink_checkId_tag_key" ON "CheckRecordLink"("checkId", "tag");
