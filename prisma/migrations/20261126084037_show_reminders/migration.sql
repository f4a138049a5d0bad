-- CreateTable
CREATE TABLE "ShowFollower" (
    "id" TEXT NOT NULL,
    "calendarToken" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShowFollower_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShowFollow" (
    "followerId" TEXT NOT NULL,
    "showId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShowFollow_pkey" PRIMARY KEY ("followerId","showId")
);

-- CreateTable
CREATE TABLE "PushSubscription" (
    "id" TEXT NOT NULL,
    "followerId" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "p256dh" TEXT NOT NULL,
    "auth" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PushSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PushDelivery" (
    "subscriptionId" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PushDelivery_pkey" PRIMARY KEY ("subscriptionId","message")
);

-- CreateIndex
CREATE UNIQUE INDEX "ShowFollower_calendarToken_key" ON "ShowFollower"("calendarToken");

-- CreateIndex
CREATE INDEX "ShowFollow_showId_idx" ON "ShowFollow"("showId");

-- CreateIndex
CREATE UNIQUE INDEX "PushSubscription_endpoint_key" ON "PushSubscription"("endpoint");

-- CreateIndex
CREATE INDEX "PushSubscription_followerId_idx" ON "PushSubscription"("followerId");

-- CreateIndex
CREATE INDEX "PushDelivery_sentAt_idx" ON "PushDelivery"("sentAt");

-- AddForeignKey
ALTER TABLE "ShowFollow" ADD CONSTRAINT "ShowFollow_followerId_fkey" FOREIGN KEY ("followerId") REFERENCES "ShowFollower"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShowFollow" ADD CONSTRAINT "ShowFollow_showId_fkey" FOREIGN KEY ("showId") REFERENCES "Show"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PushSubscription" ADD CONSTRAINT "PushSubscription_followerId_fkey" FOREIGN KEY ("followerId") REFERENCES "ShowFollower"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PushDelivery" ADD CONSTRAINT "PushDelivery_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "PushSubscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;
