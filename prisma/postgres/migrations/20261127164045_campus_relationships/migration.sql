-- AlterTable
ALTER TABLE "ContactPoint" ADD COLUMN     "CreatorID" INTEGER,
ADD COLUMN     "Label" TEXT,
ADD COLUMN     "Modified" TIMESTAMP(3),
ADD COLUMN     "ModifierID" INTEGER;

-- CreateTable
CREATE TABLE "PersonRelationship" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\People\Relationship',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "PersonID" INTEGER NOT NULL,
    "RelatedPersonID" INTEGER NOT NULL,
    "Relationship" TEXT,
    "Notes" TEXT,

    CONSTRAINT "PersonRelationship_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Note" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\CRM\Message',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "ContextClass" TEXT NOT NULL,
    "ContextID" INTEGER NOT NULL,
    "AuthorID" INTEGER,
    "Subject" TEXT NOT NULL,
    "Message" TEXT NOT NULL,
    "MessageFormat" TEXT NOT NULL DEFAULT 'html',
    "Status" TEXT NOT NULL DEFAULT 'draft-private',
    "ParentMessageID" INTEGER,
    "Source" TEXT NOT NULL DEFAULT 'direct',
    "Sent" TIMESTAMP(3),

    CONSTRAINT "Note_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "ConnectorMapping" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\Connectors\Mapping',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "ContextClass" TEXT NOT NULL,
    "ContextID" INTEGER NOT NULL,
    "Source" TEXT NOT NULL,
    "Connector" TEXT NOT NULL,
    "ExternalKey" TEXT NOT NULL,
    "ExternalIdentifier" TEXT NOT NULL,

    CONSTRAINT "ConnectorMapping_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Department" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Courses\Department',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "Code" TEXT,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Description" TEXT,

    CONSTRAINT "Department_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Schedule" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Courses\Schedule',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "Title" TEXT,
    "Handle" TEXT NOT NULL,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Description" TEXT,

    CONSTRAINT "Schedule_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "ContentItem" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\CMS\Item\Text',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "Title" TEXT,
    "ContentID" INTEGER NOT NULL,
    "AuthorID" INTEGER,
    "Status" TEXT NOT NULL DEFAULT 'Published',
    "Order" INTEGER,
    "Data" TEXT NOT NULL,

    CONSTRAINT "ContentItem_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Media" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'PhotoMedia',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "ContextClass" TEXT,
    "ContextID" INTEGER,
    "MIMEType" TEXT NOT NULL,
    "Width" INTEGER,
    "Height" INTEGER,
    "Duration" DOUBLE PRECISION,
    "Caption" TEXT,
    "StorageKey" TEXT NOT NULL,
    "Size" INTEGER NOT NULL,

    CONSTRAINT "Media_pkey" PRIMARY KEY ("ID")
);

-- CreateIndex
CREATE INDEX "PersonRelationship_RelatedPersonID_idx" ON "PersonRelationship"("RelatedPersonID");

-- CreateIndex
CREATE UNIQUE INDEX "PersonRelationship_PersonID_RelatedPersonID_key" ON "PersonRelationship"("PersonID", "RelatedPersonID");

-- CreateIndex
CREATE INDEX "Note_ContextClass_ContextID_idx" ON "Note"("ContextClass", "ContextID");

-- CreateIndex
CREATE INDEX "ConnectorMapping_ContextClass_ContextID_idx" ON "ConnectorMapping"("ContextClass", "ContextID");

-- CreateIndex
CREATE UNIQUE INDEX "ConnectorMapping_Connector_ExternalKey_ExternalIdentifier_key" ON "ConnectorMapping"("Connector", "ExternalKey", "ExternalIdentifier");

-- CreateIndex
CREATE UNIQUE INDEX "Department_Handle_key" ON "Department"("Handle");

-- CreateIndex
CREATE UNIQUE INDEX "Department_Code_key" ON "Department"("Code");

-- CreateIndex
CREATE UNIQUE INDEX "Schedule_Handle_key" ON "Schedule"("Handle");

-- CreateIndex
CREATE INDEX "ContentItem_ContentID_Order_idx" ON "ContentItem"("ContentID", "Order");

-- CreateIndex
CREATE UNIQUE INDEX "Media_StorageKey_key" ON "Media"("StorageKey");

-- CreateIndex
CREATE INDEX "Media_ContextClass_ContextID_idx" ON "Media"("ContextClass", "ContextID");

-- CreateIndex
CREATE INDEX "Course_DepartmentID_idx" ON "Course"("DepartmentID");

-- CreateIndex
CREATE INDEX "Section_ScheduleID_idx" ON "Section"("ScheduleID");

-- Courses and sections stored a DepartmentID or ScheduleID before these kinds existed: each
-- such id becomes a record of its own, titled by it, so nothing stored is lost or left dangling.
INSERT INTO "Department" ("ID", "Title", "Handle") SELECT DISTINCT "DepartmentID", 'Department ' || "DepartmentID", 'department_' || "DepartmentID" FROM "Course" WHERE "DepartmentID" IS NOT NULL;
INSERT INTO "Schedule" ("ID", "Title", "Handle") SELECT DISTINCT "ScheduleID", 'Schedule ' || "ScheduleID", 'schedule_' || "ScheduleID" FROM "Section" WHERE "ScheduleID" IS NOT NULL;
SELECT setval(pg_get_serial_sequence('"Department"', 'ID'), COALESCE(MAX("ID"), 0) + 1, false) FROM "Department";
SELECT setval(pg_get_serial_sequence('"Schedule"', 'ID'), COALESCE(MAX("ID"), 0) + 1, false) FROM "Schedule";

-- AddForeignKey
ALTER TABLE "PersonRelationship" ADD CONSTRAINT "PersonRelationship_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonRelationship" ADD CONSTRAINT "PersonRelationship_RelatedPersonID_fkey" FOREIGN KEY ("RelatedPersonID") REFERENCES "Person"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Course" ADD CONSTRAINT "Course_DepartmentID_fkey" FOREIGN KEY ("DepartmentID") REFERENCES "Department"("ID") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Section" ADD CONSTRAINT "Section_ScheduleID_fkey" FOREIGN KEY ("ScheduleID") REFERENCES "Schedule"("ID") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContentItem" ADD CONSTRAINT "ContentItem_ContentID_fkey" FOREIGN KEY ("ContentID") REFERENCES "Content"("ID") ON DELETE CASCADE ON UPDATE CASCADE;
