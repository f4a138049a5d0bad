-- CreateTable
CREATE TABLE "AudienceSalt" (
    "day" TEXT NOT NULL,
    "salt" TEXT NOT NULL,

    CONSTRAINT "AudienceSalt_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "PodcastDownloadProgress" (
    "day" TEXT NOT NULL,
    "listenerHash" TEXT NOT NULL,
    "episodeId" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,
    "counted" BOOLEAN NOT NULL DEFAULT false,
    "lastAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PodcastDownloadProgress_pkey" PRIMARY KEY ("day","listenerHash","episodeId")
);

-- CreateTable
CREATE TABLE "PodcastDownload" (
    "id" BIGSERIAL NOT NULL,
    "episodeId" INTEGER NOT NULL,
    "countedAt" TIMESTAMPTZ(3) NOT NULL,
    "app" TEXT NOT NULL,
    "device" TEXT NOT NULL,
    "country" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "PodcastDownload_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ListeningSession" (
    "id" BIGSERIAL NOT NULL,
    "source" TEXT NOT NULL,
    "clientKey" TEXT NOT NULL,
    "listenerHash" TEXT,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "endedAt" TIMESTAMPTZ(3) NOT NULL,
    "open" BOOLEAN NOT NULL DEFAULT true,
    "app" TEXT NOT NULL,
    "device" TEXT NOT NULL,
    "country" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "ListeningSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StreamListenerSample" (
    "at" TIMESTAMPTZ(3) NOT NULL,
    "mount" TEXT NOT NULL,
    "listeners" INTEGER NOT NULL,

    CONSTRAINT "StreamListenerSample_pkey" PRIMARY KEY ("at","mount")
);

-- CreateTable
CREATE TABLE "AudienceHour" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL,
    "sessions" INTEGER NOT NULL,
    "listenSeconds" BIGINT NOT NULL,

    CONSTRAINT "AudienceHour_pkey" PRIMARY KEY ("hour","source")
);

-- CreateTable
CREATE TABLE "AudienceQuarter" (
    "quarter" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL,
    "listeners" INTEGER NOT NULL,
    "listenSeconds" BIGINT NOT NULL,
    "peak" INTEGER NOT NULL,

    CONSTRAINT "AudienceQuarter_pkey" PRIMARY KEY ("quarter","source")
);

-- CreateTable
CREATE TABLE "AudienceBreakdown" (
    "day" DATE NOT NULL,
    "source" TEXT NOT NULL,
    "dimension" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "sessions" INTEGER NOT NULL,
    "listenSeconds" BIGINT NOT NULL,

    CONSTRAINT "AudienceBreakdown_pkey" PRIMARY KEY ("day","source","dimension","value")
);

-- CreateTable
CREATE TABLE "AudienceDay" (
    "day" DATE NOT NULL,
    "source" TEXT NOT NULL,
    "uniques" INTEGER NOT NULL,

    CONSTRAINT "AudienceDay_pkey" PRIMARY KEY ("day","source")
);

-- CreateTable
CREATE TABLE "AudienceRollup" (
    "hour" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AudienceRollup_pkey" PRIMARY KEY ("hour")
);

-- CreateIndex
CREATE INDEX "PodcastDownloadProgress_lastAt_idx" ON "PodcastDownloadProgress"("lastAt");

-- CreateIndex
CREATE INDEX "PodcastDownload_episodeId_countedAt_idx" ON "PodcastDownload"("episodeId", "countedAt");

-- CreateIndex
CREATE INDEX "PodcastDownload_countedAt_idx" ON "PodcastDownload"("countedAt");

-- CreateIndex
CREATE INDEX "ListeningSession_endedAt_idx" ON "ListeningSession"("endedAt");

-- CreateIndex
CREATE INDEX "ListeningSession_startedAt_idx" ON "ListeningSession"("startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "ListeningSession_source_clientKey_key" ON "ListeningSession"("source", "clientKey");

-- AddForeignKey
ALTER TABLE "PodcastDownload" ADD CONSTRAINT "PodcastDownload_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "PodcastEpisode"("id") ON DELETE CASCADE ON UPDATE CASCADE;
