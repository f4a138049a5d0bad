-- CreateTable
CREATE TABLE "ListenerSession" (
    "id" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "userId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ListenerSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ListenerSession_userId_idx" ON "ListenerSession"("userId");

-- CreateIndex
CREATE INDEX "ListenerSession_expiresAt_idx" ON "ListenerSession"("expiresAt");

-- AddForeignKey
ALTER TABLE "ListenerSession" ADD CONSTRAINT "ListenerSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
