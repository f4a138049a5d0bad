-- AlterTable
ALTER TABLE "Show" ADD COLUMN     "archive" TEXT NOT NULL DEFAULT 'off',
ADD COLUMN     "archivePostrollSeconds" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "archivePrerollSeconds" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "RewindSegment" (
    "sequence" INTEGER NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "gapBefore" BOOLEAN NOT NULL DEFAULT false,
    "discontinuity" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RewindSegment_pkey" PRIMARY KEY ("sequence")
);

-- CreateTable
CREATE TABLE "ShowRecording" (
    "id" TEXT NOT NULL,
    "showId" TEXT NOT NULL,
    "airingStart" TIMESTAMPTZ(3) NOT NULL,
    "airingEnd" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "audioKey" TEXT,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "chapters" JSONB,
    "missingSeconds" INTEGER NOT NULL DEFAULT 0,
    "trimStartSeconds" INTEGER NOT NULL DEFAULT 0,
    "trimEndSeconds" INTEGER NOT NULL DEFAULT 0,
    "episodeId" INTEGER,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShowRecording_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RewindSegment_key_key" ON "RewindSegment"("key");

-- CreateIndex
CREATE INDEX "RewindSegment_startedAt_idx" ON "RewindSegment"("startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "ShowRecording_episodeId_key" ON "ShowRecording"("episodeId");

-- CreateIndex
CREATE INDEX "ShowRecording_status_idx" ON "ShowRecording"("status");

-- CreateIndex
CREATE UNIQUE INDEX "ShowRecording_showId_airingStart_key" ON "ShowRecording"("showId", "airingStart");

-- AddForeignKey
ALTER TABLE "ShowRecording" ADD CONSTRAINT "ShowRecording_showId_fkey" FOREIGN KEY ("showId") REFERENCES "Show"("id") ON DELETE CASCADE ON UPDATE CASCADE;
