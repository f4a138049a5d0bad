import { db } from "~/services/db.server";

/** The chart embeds in the order the admin arranged them. Codes are stored already sanitised. */
export function listEmbeds() {
  return db().embed.findMany({
    orderBy: [{ position: "asc" }, { createdAt: "asc" }],
    select: { id: true, code: true, position: true, createdAt: true },
  });
}

export type EmbedListItem = Awaited<ReturnType<typeof listEmbeds>>[number];
