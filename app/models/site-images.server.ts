import { db } from "~/services/db.server";

export type SiteImageSlot = "jumbotron";

/** The image in a named slot of the site, or null when none was set. */
export async function getSiteImage(slot: SiteImageSlot) {
  const row = await db().siteImage.findUnique({
    where: { slot },
    select: { image: { select: { key: true, width: true, height: true, variantWidths: true } } },
  });
  return row?.image ?? null;
}
