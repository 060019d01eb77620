-- CreateTable
CREATE TABLE "Tag" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Tag',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "Title" TEXT NOT NULL,
    "Handle" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "ContentTag" (
    "ContentID" INTEGER NOT NULL,
    "TagID" INTEGER NOT NULL,

    PRIMARY KEY ("ContentID", "TagID"),
    CONSTRAINT "ContentTag_ContentID_fkey" FOREIGN KEY ("ContentID") REFERENCES "Content" ("ID") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ContentTag_TagID_fkey" FOREIGN KEY ("TagID") REFERENCES "Tag" ("ID") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Comment" (
    "ID" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "Class" TEXT NOT NULL DEFAULT 'Emergence\Comments\Comment',
    "Created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "CreatorID" INTEGER,
    "Modified" DATETIME,
    "ModifierID" INTEGER,
    "ContextClass" TEXT NOT NULL,
    "ContextID" INTEGER NOT NULL,
    "Handle" TEXT NOT NULL,
    "ReplyToID" INTEGER,
    "Message" TEXT NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Tag_Handle_key" ON "Tag"("Handle");

-- CreateIndex
CREATE INDEX "ContentTag_TagID_idx" ON "ContentTag"("TagID");

-- CreateIndex
CREATE UNIQUE INDEX "Comment_Handle_key" ON "Comment"("Handle");

-- CreateIndex
CREATE INDEX "Comment_ContextClass_ContextID_idx" ON "Comment"("ContextClass", "ContextID");
