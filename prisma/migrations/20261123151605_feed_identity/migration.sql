-- AlterTable
-- Existing events get their UID now, once; from here on it never changes.
ALTER TABLE "Event" ADD COLUMN     "uid" TEXT;
UPDATE "Event" SET "uid" = gen_random_uuid()::text WHERE "uid" IS NULL;
ALTER TABLE "Event" ALTER COLUMN "uid" SET NOT NULL;

-- AlterTable
ALTER TABLE "PodcastEpisode" ADD COLUMN     "chapters" JSONB,
ADD COLUMN     "encodeError" TEXT,
ADD COLUMN     "encodeProgress" INTEGER NOT NULL DEFAULT 100,
ADD COLUMN     "episodeNumber" INTEGER,
ADD COLUMN     "listeningReady" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "originalAudioId" TEXT,
ADD COLUMN     "seasonNumber" INTEGER,
ADD COLUMN     "transcriptId" TEXT;

-- AlterTable
ALTER TABLE "StoredFile" ADD COLUMN     "artworkSize" INTEGER;

-- CreateTable
CREATE TABLE "EpisodeCredit" (
    "episodeId" INTEGER NOT NULL,
    "crewMemberId" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'host',
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "EpisodeCredit_pkey" PRIMARY KEY ("episodeId","crewMemberId")
);

-- CreateIndex
CREATE UNIQUE INDEX "Event_uid_key" ON "Event"("uid");

-- AddForeignKey
ALTER TABLE "PodcastEpisode" ADD CONSTRAINT "PodcastEpisode_originalAudioId_fkey" FOREIGN KEY ("originalAudioId") REFERENCES "StoredFile"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PodcastEpisode" ADD CONSTRAINT "PodcastEpisode_transcriptId_fkey" FOREIGN KEY ("transcriptId") REFERENCES "StoredFile"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EpisodeCredit" ADD CONSTRAINT "EpisodeCredit_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "PodcastEpisode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EpisodeCredit" ADD CONSTRAINT "EpisodeCredit_crewMemberId_fkey" FOREIGN KEY ("crewMemberId") REFERENCES "CrewMember"("id") ON DELETE CASCADE ON UPDATE CASCADE;
