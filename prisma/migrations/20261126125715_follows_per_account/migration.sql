-- AlterTable
ALTER TABLE "ShowFollower" ADD COLUMN     "userId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "ShowFollower_userId_key" ON "ShowFollower"("userId");

-- AddForeignKey
ALTER TABLE "ShowFollower" ADD CONSTRAINT "ShowFollower_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
