-- AlterTable
ALTER TABLE "CrewMember" ADD COLUMN     "detailsPublic" BOOLEAN NOT NULL DEFAULT false;
