-- AlterTable
ALTER TABLE "PodcastEpisode" ADD COLUMN     "showId" TEXT;

-- AlterTable
ALTER TABLE "Show" ADD COLUMN     "artworkId" TEXT;

-- CreateIndex
CREATE INDEX "PodcastEpisode_showId_publishedAt_idx" ON "PodcastEpisode"("showId", "publishedAt");

-- AddForeignKey
ALTER TABLE "PodcastEpisode" ADD CONSTRAINT "PodcastEpisode_showId_fkey" FOREIGN KEY ("showId") REFERENCES "Show"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Show" ADD CONSTRAINT "Show_artworkId_fkey" FOREIGN KEY ("artworkId") REFERENCES "StoredFile"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
