-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "apiKeyHash" TEXT,
    "apiKeyReadonlyHash" TEXT,
    "pingKeyHash" TEXT,
    "badgeKeyHash" TEXT NOT NULL,
    "pingLogLimit" INTEGER NOT NULL DEFAULT 100,
    "nagPeriod" INTEGER,
    "nagNextAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Check" (
    "id" SERIAL NOT NULL,
    "code" TEXT NOT NULL,
    "uniqueKey" TEXT NOT NULL,
    "badgeKey" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "slug" TEXT NOT NULL DEFAULT '',
    "tags" TEXT NOT NULL DEFAULT '',
    "desc" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL DEFAULT 'simple',
    "timeout" INTEGER NOT NULL DEFAULT 86400,
    "grace" INTEGER NOT NULL DEFAULT 3600,
    "schedule" TEXT NOT NULL DEFAULT '* * * * *',
    "tz" TEXT NOT NULL DEFAULT 'UTC',
    "methods" TEXT NOT NULL DEFAULT '',
    "manualResume" BOOLEAN NOT NULL DEFAULT false,
    "startKw" TEXT NOT NULL DEFAULT '',
    "successKw" TEXT NOT NULL DEFAULT '',
    "failureKw" TEXT NOT NULL DEFAULT '',
    "filterSubject" BOOLEAN NOT NULL DEFAULT false,
    "filterBody" BOOLEAN NOT NULL DEFAULT false,
    "filterHttpBody" BOOLEAN NOT NULL DEFAULT false,
    "filterDefaultFail" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'new',
    "nPings" INTEGER NOT NULL DEFAULT 0,
    "lastPing" TIMESTAMP(3),
    "lastStart" TIMESTAMP(3),
    "lastStartRid" TEXT,
    "lastDurationMs" INTEGER,
    "alertAfter" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Check_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Ping" (
    "id" SERIAL NOT NULL,
    "checkId" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "scheme" TEXT NOT NULL,
    "remoteAddr" TEXT,
    "method" TEXT NOT NULL,
    "ua" TEXT NOT NULL,
    "rid" TEXT,
    "exitStatus" INTEGER,
    "body" BYTEA,

    CONSTRAINT "Ping_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Flip" (
    "id" SERIAL NOT NULL,
    "checkId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "oldStatus" TEXT NOT NULL,
    "newStatus" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "processed" TIMESTAMP(3),

    CONSTRAINT "Flip_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Channel" (
    "id" SERIAL NOT NULL,
    "code" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "notifyDown" BOOLEAN NOT NULL DEFAULT true,
    "notifyUp" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Channel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" SERIAL NOT NULL,
    "code" TEXT NOT NULL,
    "channelId" INTEGER NOT NULL,
    "checkId" INTEGER,
    "flipId" INTEGER,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "eventAt" TIMESTAMP(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL,
    "sentAt" TIMESTAMP(3),
    "lastAttemptAt" TIMESTAMP(3),
    "durationMs" INTEGER,

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CheckChannel" (
    "checkId" INTEGER NOT NULL,
    "channelId" INTEGER NOT NULL,

    CONSTRAINT "CheckChannel_pkey" PRIMARY KEY ("checkId","channelId")
);

-- CreateTable
CREATE TABLE "Person" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\People\Person',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
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
    "AccountLevel" TEXT,

    CONSTRAINT "Person_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "ContactPoint" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL,
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "PersonID" INTEGER NOT NULL,
    "Data" TEXT NOT NULL,

    CONSTRAINT "ContactPoint_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "CampusSession" (
    "ID" SERIAL NOT NULL,
    "TokenHash" TEXT NOT NULL,
    "PersonID" INTEGER NOT NULL,
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "LastRequest" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CampusSession_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Course" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Courses\Course',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "Code" TEXT NOT NULL,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Description" TEXT,
    "Prerequisites" TEXT,
    "DepartmentID" INTEGER,

    CONSTRAINT "Course_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Term" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Term',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "StarDate" TEXT,
    "EndDate" TEXT,
    "ParentID" INTEGER,

    CONSTRAINT "Term_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Location" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\Locations\Location',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Description" TEXT,
    "ParentID" INTEGER,

    CONSTRAINT "Location_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Section" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Courses\Section',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
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

    CONSTRAINT "Section_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "SectionParticipant" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Slate\Courses\SectionParticipant',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "CourseSectionID" INTEGER NOT NULL,
    "PersonID" INTEGER NOT NULL,
    "Role" TEXT NOT NULL,
    "StartDate" TIMESTAMP(3),
    "EndDate" TIMESTAMP(3),

    CONSTRAINT "SectionParticipant_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Group" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\People\Groups\Group',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "Name" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "ParentID" INTEGER,
    "Founded" TEXT,
    "Data" TEXT,
    "Status" TEXT NOT NULL DEFAULT 'Live',

    CONSTRAINT "Group_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "GroupMember" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\People\Groups\GroupMember',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "GroupID" INTEGER NOT NULL,
    "PersonID" INTEGER NOT NULL,
    "Role" TEXT NOT NULL DEFAULT 'Member',
    "Joined" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GroupMember_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Content" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL,
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "ContextClass" TEXT,
    "ContextID" INTEGER,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,
    "AuthorID" INTEGER,
    "Status" TEXT NOT NULL DEFAULT 'Live',
    "Published" TIMESTAMP(3),
    "Visibility" TEXT NOT NULL DEFAULT 'Public',
    "LayoutClass" TEXT,
    "LayoutConfig" TEXT,

    CONSTRAINT "Content_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "Tag" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Tag',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL,

    CONSTRAINT "Tag_pkey" PRIMARY KEY ("ID")
);

-- CreateTable
CREATE TABLE "ContentTag" (
    "ContentID" INTEGER NOT NULL,
    "TagID" INTEGER NOT NULL,

    CONSTRAINT "ContentTag_pkey" PRIMARY KEY ("ContentID","TagID")
);

-- CreateTable
CREATE TABLE "Comment" (
    "ID" SERIAL NOT NULL,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\Comments\Comment',
    "Created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" TIMESTAMP(3),
    "ModifierID" INTEGER,
    "ContextClass" TEXT NOT NULL,
    "ContextID" INTEGER NOT NULL,
    "Handle" TEXT NOT NULL,
    "ReplyToID" INTEGER,
    "Message" TEXT NOT NULL,

    CONSTRAINT "Comment_pkey" PRIMARY KEY ("ID")
);

-- CreateIndex
CREATE UNIQUE INDEX "Project_apiKeyHash_key" ON "Project"("apiKeyHash");

-- CreateIndex
CREATE UNIQUE INDEX "Project_apiKeyReadonlyHash_key" ON "Project"("apiKeyReadonlyHash");

-- CreateIndex
CREATE UNIQUE INDEX "Project_pingKeyHash_key" ON "Project"("pingKeyHash");

-- CreateIndex
CREATE INDEX "Project_nagNextAt_idx" ON "Project"("nagNextAt");

-- CreateIndex
CREATE UNIQUE INDEX "Check_code_key" ON "Check"("code");

-- CreateIndex
CREATE UNIQUE INDEX "Check_uniqueKey_key" ON "Check"("uniqueKey");

-- CreateIndex
CREATE UNIQUE INDEX "Check_badgeKey_key" ON "Check"("badgeKey");

-- CreateIndex
CREATE INDEX "Check_projectId_idx" ON "Check"("projectId");

-- CreateIndex
CREATE INDEX "Check_projectId_slug_idx" ON "Check"("projectId", "slug");

-- CreateIndex
CREATE INDEX "Check_alertAfter_idx" ON "Check"("alertAfter");

-- CreateIndex
CREATE UNIQUE INDEX "Ping_checkId_n_key" ON "Ping"("checkId", "n");

-- CreateIndex
CREATE INDEX "Flip_checkId_createdAt_idx" ON "Flip"("checkId", "createdAt");

-- CreateIndex
CREATE INDEX "Flip_processed_idx" ON "Flip"("processed");

-- CreateIndex
CREATE UNIQUE INDEX "Channel_code_key" ON "Channel"("code");

-- CreateIndex
CREATE INDEX "Channel_projectId_idx" ON "Channel"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_code_key" ON "Notification"("code");

-- CreateIndex
CREATE INDEX "Notification_state_nextAttemptAt_idx" ON "Notification"("state", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Notification_channelId_id_idx" ON "Notification"("channelId", "id");

-- CreateIndex
CREATE INDEX "Notification_checkId_id_idx" ON "Notification"("checkId", "id");

-- CreateIndex
CREATE INDEX "Notification_flipId_idx" ON "Notification"("flipId");

-- CreateIndex
CREATE INDEX "CheckChannel_channelId_idx" ON "CheckChannel"("channelId");

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

-- CreateIndex
CREATE UNIQUE INDEX "Tag_Handle_key" ON "Tag"("Handle");

-- CreateIndex
CREATE INDEX "ContentTag_TagID_idx" ON "ContentTag"("TagID");

-- CreateIndex
CREATE UNIQUE INDEX "Comment_Handle_key" ON "Comment"("Handle");

-- CreateIndex
CREATE INDEX "Comment_ContextClass_ContextID_idx" ON "Comment"("ContextClass", "ContextID");

-- AddForeignKey
ALTER TABLE "Check" ADD CONSTRAINT "Check_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Ping" ADD CONSTRAINT "Ping_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Flip" ADD CONSTRAINT "Flip_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Channel" ADD CONSTRAINT "Channel_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_flipId_fkey" FOREIGN KEY ("flipId") REFERENCES "Flip"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckChannel" ADD CONSTRAINT "CheckChannel_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "Check"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckChannel" ADD CONSTRAINT "CheckChannel_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContactPoint" ADD CONSTRAINT "ContactPoint_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampusSession" ADD CONSTRAINT "CampusSession_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Term" ADD CONSTRAINT "Term_ParentID_fkey" FOREIGN KEY ("ParentID") REFERENCES "Term"("ID") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Location" ADD CONSTRAINT "Location_ParentID_fkey" FOREIGN KEY ("ParentID") REFERENCES "Location"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Section" ADD CONSTRAINT "Section_CourseID_fkey" FOREIGN KEY ("CourseID") REFERENCES "Course"("ID") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Section" ADD CONSTRAINT "Section_TermID_fkey" FOREIGN KEY ("TermID") REFERENCES "Term"("ID") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Section" ADD CONSTRAINT "Section_LocationID_fkey" FOREIGN KEY ("LocationID") REFERENCES "Location"("ID") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SectionParticipant" ADD CONSTRAINT "SectionParticipant_CourseSectionID_fkey" FOREIGN KEY ("CourseSectionID") REFERENCES "Section"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SectionParticipant" ADD CONSTRAINT "SectionParticipant_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Group" ADD CONSTRAINT "Group_ParentID_fkey" FOREIGN KEY ("ParentID") REFERENCES "Group"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GroupMember" ADD CONSTRAINT "GroupMember_GroupID_fkey" FOREIGN KEY ("GroupID") REFERENCES "Group"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GroupMember" ADD CONSTRAINT "GroupMember_PersonID_fkey" FOREIGN KEY ("PersonID") REFERENCES "Person"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Content" ADD CONSTRAINT "Content_AuthorID_fkey" FOREIGN KEY ("AuthorID") REFERENCES "Person"("ID") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContentTag" ADD CONSTRAINT "ContentTag_ContentID_fkey" FOREIGN KEY ("ContentID") REFERENCES "Content"("ID") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContentTag" ADD CONSTRAINT "ContentTag_TagID_fkey" FOREIGN KEY ("TagID") REFERENCES "Tag"("ID") ON DELETE CASCADE ON UPDATE CASCADE;
