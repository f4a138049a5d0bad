-- CreateTable
CREATE TABLE "Show" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "colour" TEXT NOT NULL DEFAULT '#e11d48',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Show_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShowHost" (
    "showId" TEXT NOT NULL,
    "crewMemberId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "ShowHost_pkey" PRIMARY KEY ("showId","crewMemberId")
);

-- CreateTable
CREATE TABLE "ShowSlot" (
    "id" TEXT NOT NULL,
    "showId" TEXT NOT NULL,
    "startDate" TEXT NOT NULL,
    "startTime" TEXT NOT NULL,
    "durationMinutes" INTEGER NOT NULL,
    "rrule" TEXT,
    "endDate" TEXT,
    "exdates" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShowSlot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AiringMove" (
    "id" TEXT NOT NULL,
    "slotId" TEXT NOT NULL,
    "originalStart" TEXT NOT NULL,
    "newStart" TEXT NOT NULL,
    "durationMinutes" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AiringMove_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SongPlay" (
    "id" BIGSERIAL NOT NULL,
    "playedAt" TIMESTAMPTZ(3) NOT NULL,
    "raw" TEXT NOT NULL,
    "artist" TEXT NOT NULL DEFAULT '',
    "title" TEXT NOT NULL,
    "showId" TEXT,
    "showName" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "SongPlay_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Show_slug_key" ON "Show"("slug");

-- CreateIndex
CREATE INDEX "ShowHost_crewMemberId_idx" ON "ShowHost"("crewMemberId");

-- CreateIndex
CREATE INDEX "ShowSlot_showId_idx" ON "ShowSlot"("showId");

-- CreateIndex
CREATE UNIQUE INDEX "AiringMove_slotId_originalStart_key" ON "AiringMove"("slotId", "originalStart");

-- CreateIndex
CREATE INDEX "SongPlay_playedAt_id_idx" ON "SongPlay"("playedAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "ShowHost" ADD CONSTRAINT "ShowHost_showId_fkey" FOREIGN KEY ("showId") REFERENCES "Show"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShowHost" ADD CONSTRAINT "ShowHost_crewMemberId_fkey" FOREIGN KEY ("crewMemberId") REFERENCES "CrewMember"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShowSlot" ADD CONSTRAINT "ShowSlot_showId_fkey" FOREIGN KEY ("showId") REFERENCES "Show"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AiringMove" ADD CONSTRAINT "AiringMove_slotId_fkey" FOREIGN KEY ("slotId") REFERENCES "ShowSlot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SongPlay" ADD CONSTRAINT "SongPlay_showId_fkey" FOREIGN KEY ("showId") REFERENCES "Show"("id") ON DELETE SET NULL ON UPDATE CASCADE;
