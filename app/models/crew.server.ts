import { db } from "~/services/db.server";

const imageSelect = { select: { key: true, width: true, height: true, variantWidths: true } } as const;

/** The crew members shown on /CrewSpin and managed on /CrewAdmin. */
export function listCrewMembers() {
  return db().crewMember.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, age: true, email: true, jobTitle: true, address: true, bio: true, image: imageSelect },
  });
}

export type CrewMemberListItem = Awaited<ReturnType<typeof listCrewMembers>>[number];

/** The slider images Crew1, Crew2, ... in slider order. */
export function listCrewImages() {
  return db().crewImage.findMany({
    orderBy: [{ position: "asc" }, { key: "asc" }],
    select: { id: true, key: true, position: true, image: imageSelect },
  });
}

export type CrewImageListItem = Awaited<ReturnType<typeof listCrewImages>>[number];
