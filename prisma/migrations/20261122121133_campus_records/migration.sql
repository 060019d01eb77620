-- CreateTable
CREATE TABLE "Person" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\People\Person',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "FirstName" TEXT NOT NULL,
    "LastName" TEXT NOT NULL,
    "MiddleName" TEXT,
    "Gender" TEXT,
    "BirthDate" TEXT,
    "Location" TEXT,
    "About" TEXT,
    "PrimaryPhotoID" INTEGER,
    "PrimaryEmailID" INTEGER,
    "PrimaryPhoneID" INTEGER,
    "PrimaryPostalID" INTEGER,
    "Username" TEXT,
    "PasswordHash" TEXT,
    "AccountLevel" TEXT
);

-- CreateTable
CREATE TABLE "ContactPoint" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL,
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "PersonID" INTEGER NOT NULL,
    "Data" TEXT NOT NULL,
    CONSTRAINT "ContactPoint_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CampusSession" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "TokenHash" TEXT NOT NULL,
    "PersonID" INTEGER NOT NULL,
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "LastRequest" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CampusSession_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Course" (
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
    "DepartmentID" INTEGER
);

-- CreateTable
CREATE TABLE "Term" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Term',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "StarDate" TEXT,
    "EndDate" TEXT,
    "ParentID" INTEGER,
    CONSTRAINT "Term_ParentID_fkey" FOREIGN KEY ("ParentID") REFERENCES "Term" ("ID") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Location" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\Locations\Location',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Description" TEXT,
    "ParentID" INTEGER,
    CONSTRAINT "Location_ParentID_fkey" FOREIGN KEY ("ParentID") REFERENCES "Location" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Section" (
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
    CONSTRAINT "Section_LocationID_fkey" FOREIGN KEY ("LocationID") REFERENCES "Location" ("ID") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SectionParticipant" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Courses\SectionParticipant',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "CourseSectionID" INTEGER NOT NULL,
    "PersonID" INTEGER NOT NULL,
    "Role" TEXT NOT NULL,
    "StartDate" DATETIME,
    "EndDate" DATETIME,
    CONSTRAINT "SectionParticipant_CourseSectionID_fkey" FOREIGN KEY ("CourseSectionID") REFERENCES "Section" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "SectionParticipant_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Group" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\People\Groups\Group',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "Name" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "ParentID" INTEGER,
    "Founded" TEXT,
    "Data" TEXT,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    CONSTRAINT "Group_ParentID_fkey" FOREIGN KEY ("ParentID") REFERENCES "Group" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GroupMember" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\People\Groups\GroupMember',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "GroupID" INTEGER NOT NULL,
    "PersonID" INTEGER NOT NULL,
    "Role" TEXT NOT NULL DEFAULT 'Member',
    "Joined" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "GroupMember_GroupID_fkey" FOREIGN KEY ("GroupID") REFERENCES "Group" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "GroupMember_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Content" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL,
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "ContextClass" TEXT,
    "ContextID" INTEGER,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "AuthorID" INTEGER,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Published" DATETIME,
    "Visibility" TEXT NOT NULL DEFAULT 'Public',
    "LayoutClass" TEXT,
    "LayoutConfig" TEXT,
    CONSTRAINT "Content_AuthorID_fkey" FOREIGN KEY ("AuthorID") REFERENCES "Person" ("ID") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Person_Username_key" ON "Person"("Username");

-- CreateIndex
CREATE INDEX "Person_LastName_FirstName_idx" ON "Person"("LastName", "FirstName");

-- CreateIndex
CREATE INDEX "ContactPoint_PersonID_idx" ON "ContactPoint"("PersonID");

-- CreateIndex
CREATE UNIQUE INDEX "CampusSession_TokenHash_key" ON "CampusSession"("TokenHash");

-- CreateIndex
CREATE INDEX "CampusSession_PersonID_idx" ON "CampusSession"("PersonID");

-- CreateIndex
CREATE UNIQUE INDEX "Course_Handle_key" ON "Course"("Handle");

-- CreateIndex
CREATE UNIQUE INDEX "Course_Code_key" ON "Course"("Code");

-- CreateIndex
CREATE UNIQUE INDEX "Term_Handle_key" ON "Term"("Handle");

-- CreateIndex
CREATE INDEX "Term_ParentID_idx" ON "Term"("ParentID");

-- CreateIndex
CREATE UNIQUE INDEX "Location_Handle_key" ON "Location"("Handle");

-- CreateIndex
CREATE INDEX "Location_ParentID_idx" ON "Location"("ParentID");

-- CreateIndex
CREATE UNIQUE INDEX "Section_Handle_key" ON "Section"("Handle");

-- CreateIndex
CREATE UNIQUE INDEX "Section_Code_key" ON "Section"("Code");

-- CreateIndex
CREATE INDEX "Section_CourseID_idx" ON "Section"("CourseID");

-- CreateIndex
CREATE INDEX "Section_TermID_idx" ON "Section"("TermID");

-- CreateIndex
CREATE INDEX "Section_LocationID_idx" ON "Section"("LocationID");

-- CreateIndex
CREATE INDEX "SectionParticipant_PersonID_idx" ON "SectionParticipant"("PersonID");

-- CreateIndex
CREATE UNIQUE INDEX "SectionParticipant_CourseSectionID_PersonID_key" ON "SectionParticipant"("CourseSectionID", "PersonID");

-- CreateIndex
CREATE UNIQUE INDEX "Group_Handle_key" ON "Group"("Handle");

-- CreateIndex
CREATE INDEX "Group_ParentID_idx" ON "Group"("ParentID");

-- CreateIndex
CREATE INDEX "GroupMember_PersonID_idx" ON "GroupMember"("PersonID");

-- CreateIndex
CREATE UNIQUE INDEX "GroupMember_GroupID_PersonID_key" ON "GroupMember"("GroupID", "PersonID");

-- CreateIndex
CREATE UNIQUE INDEX "Content_Handle_key" ON "Content"("Handle");

-- CreateIndex
CREATE INDEX "Content_Class_Published_idx" ON "Content"("Class", "Published");

-- CreateIndex
CREATE INDEX "Content_ContextClass_ContextID_idx" ON "Content"("ContextClass", "ContextID");

-- CreateIndex
CREATE INDEX "Content_AuthorID_idx" ON "Content"("AuthorID");
