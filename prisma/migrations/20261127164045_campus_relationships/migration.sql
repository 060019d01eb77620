-- AlterTable
ALTER TABLE "ContactPoint" ADD COLUMN "CreatorID" INTEGER;
ALTER TABLE "ContactPoint" ADD COLUMN "Label" TEXT;
ALTER TABLE "ContactPoint" ADD COLUMN "Modified" DATETIME;
ALTER TABLE "ContactPoint" ADD COLUMN "ModifierID" INTEGER;

-- CreateTable
CREATE TABLE "PersonRelationship" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\People\Relationship',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "PersonID" INTEGER NOT NULL,
    "RelatedPersonID" INTEGER NOT NULL,
    "Relationship" TEXT,
    "Notes" TEXT,
    CONSTRAINT "PersonRelationship_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PersonRelationship_RelatedPersonID_fkey" FOREIGN KEY ("RelatedPersonID") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Note" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\CRM\Message',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
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
    "Sent" DATETIME
);

-- CreateTable
CREATE TABLE "ConnectorMapping" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\Connectors\Mapping',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "ContextClass" TEXT NOT NULL,
    "ContextID" INTEGER NOT NULL,
    "Source" TEXT NOT NULL,
    "Connector" TEXT NOT NULL,
    "ExternalKey" TEXT NOT NULL,
    "ExternalIdentifier" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "Department" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Courses\Department',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "Code" TEXT,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Description" TEXT
);

-- CreateTable
CREATE TABLE "Schedule" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Courses\Schedule',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "Title" TEXT,
    "Handle" TEXT NOT NULL,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Description" TEXT
);

-- CreateTable
CREATE TABLE "ContentItem" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\CMS\Item\Text',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "Title" TEXT,
    "ContentID" INTEGER NOT NULL,
    "AuthorID" INTEGER,
    "Status" TEXT NOT NULL DEFAULT 'Published',
    "Order" INTEGER,
    "Data" TEXT NOT NULL,
    CONSTRAINT "ContentItem_ContentID_fkey" FOREIGN KEY ("ContentID") REFERENCES "Content" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Media" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'PhotoMedia',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "ContextClass" TEXT,
    "ContextID" INTEGER,
    "MIMEType" TEXT NOT NULL,
    "Width" INTEGER,
    "Height" INTEGER,
    "Duration" REAL,
    "Caption" TEXT,
    "StorageKey" TEXT NOT NULL,
    "Size" INTEGER NOT NULL
);

-- RedefineTables
-- Courses and sections stored a DepartmentID or ScheduleID before these kinds existed: each
-- such id becomes a record of its own, titled by it, so nothing stored is lost or left dangling.
INSERT INTO "Department" ("ID", "Title", "Handle") SELECT DISTINCT "DepartmentID", 'Department ' || "DepartmentID", 'department_' || "DepartmentID" FROM "Course" WHERE "DepartmentID" IS NOT NULL;
INSERT INTO "Schedule" ("ID", "Title", "Handle") SELECT DISTINCT "ScheduleID", 'Schedule ' || "ScheduleID", 'schedule_' || "ScheduleID" FROM "Section" WHERE "ScheduleID" IS NOT NULL;

PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Course" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Courses\Course',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "Code" TEXT NOT NULL,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Description" TEXT,
    "Prerequisites" TEXT,
    "DepartmentID" INTEGER,
    CONSTRAINT "Course_DepartmentID_fkey" FOREIGN KEY ("DepartmentID") REFERENCES "Department" ("ID") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Course" ("Class", "Code", "Created", "CreatorID", "DepartmentID", "Description", "Handle", "ID", "Modified", "ModifierID", "Prerequisites", "Status", "Title") SELECT "Class", "Code", "Created", "CreatorID", "DepartmentID", "Description", "Handle", "ID", "Modified", "ModifierID", "Prerequisites", "Status", "Title" FROM "Course";
DROP TABLE "Course";
ALTER TABLE "new_Course" RENAME TO "Course";
CREATE UNIQUE INDEX "Course_Handle_key" ON "Course"("Handle");
CREATE UNIQUE INDEX "Course_Code_key" ON "Course"("Code");
CREATE INDEX "Course_DepartmentID_idx" ON "Course"("DepartmentID");
CREATE TABLE "new_Section" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Courses\Section',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "CourseID" INTEGER NOT NULL,
    "Title" TEXT,
    "Handle" TEXT NOT NULL,
    "Code" TEXT NOT NULL,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Notes" TEXT,
    "StudentsCapacity" INTEGER,
    "TermID" INTEGER,
    "ScheduleID" INTEGER,
    "LocationID" INTEGER,
    CONSTRAINT "Section_CourseID_fkey" FOREIGN KEY ("CourseID") REFERENCES "Course" ("ID") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Section_TermID_fkey" FOREIGN KEY ("TermID") REFERENCES "Term" ("ID") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Section_ScheduleID_fkey" FOREIGN KEY ("ScheduleID") REFERENCES "Schedule" ("ID") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Section_LocationID_fkey" FOREIGN KEY ("LocationID") REFERENCES "Location" ("ID") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Section" ("Class", "Code", "CourseID", "Created", "CreatorID", "Handle", "ID", "LocationID", "Modified", "ModifierID", "Notes", "ScheduleID", "Status", "StudentsCapacity", "TermID", "Title") SELECT "Class", "Code", "CourseID", "Created", "CreatorID", "Handle", "ID", "LocationID", "Modified", "ModifierID", "Notes", "ScheduleID", "Status", "StudentsCapacity", "TermID", "Title" FROM "Section";
DROP TABLE "Section";
ALTER TABLE "new_Section" RENAME TO "Section";
CREATE UNIQUE INDEX "Section_Handle_key" ON "Section"("Handle");
CREATE UNIQUE INDEX "Section_Code_key" ON "Section"("Code");
CREATE INDEX "Section_CourseID_idx" ON "Section"("CourseID");
CREATE INDEX "Section_TermID_idx" ON "Section"("TermID");
CREATE INDEX "Section_LocationID_idx" ON "Section"("LocationID");
CREATE INDEX "Section_ScheduleID_idx" ON "Section"("ScheduleID");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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

-- Rebuilding Course and Section dropped their search triggers (20261123144000_campus_search);
-- their rows are still in CampusSearch (DROP TABLE runs no trigger): the triggers come back as they were.
CREATE TRIGGER "Section_search_insert" AFTER INSERT ON "Section" BEGIN
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (2 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", '') || char(10) || coalesce(new."Code", ''));
END;
CREATE TRIGGER "Section_search_update" AFTER UPDATE OF "Title", "Handle", "Code", "ID" ON "Section" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 2 * 4294967296 + old."ID";
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (2 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", '') || char(10) || coalesce(new."Code", ''));
END;
CREATE TRIGGER "Section_search_delete" AFTER DELETE ON "Section" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 2 * 4294967296 + old."ID";
END;
CREATE TRIGGER "Course_search_insert" AFTER INSERT ON "Course" BEGIN
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (3 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", '') || char(10) || coalesce(new."Code", ''));
END;
CREATE TRIGGER "Course_search_update" AFTER UPDATE OF "Title", "Handle", "Code", "ID" ON "Course" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 3 * 4294967296 + old."ID";
  INSERT INTO "CampusSearch" ("rowid", "Body") VALUES (3 * 4294967296 + new."ID", coalesce(new."Title", '') || char(10) || coalesce(new."Handle", '') || char(10) || coalesce(new."Code", ''));
END;
CREATE TRIGGER "Course_search_delete" AFTER DELETE ON "Course" BEGIN
  DELETE FROM "CampusSearch" WHERE "rowid" = 3 * 4294967296 + old."ID";
END;
