import { db } from "~/services/db.server";
import { cachedRead } from "~/services/read-cache.server";
import { publish } from "~/services/realtime.server";
import { activityMessage, logActivity, type AdminActor } from "./activity.server";
import { commitFileChange, uploadImage } from "./files.server";

export type SiteImageSlot = "jumbotron";

const imageSelect = { select: { key: true, width: true, height: true, variantWidths: true } } as const;

/** The image in a named slot of the site, or null when none was set. */
export function getSiteImage(slot: SiteImageSlot) {
  return cachedRead(`siteImage:${slot}`, async () => {
    const row = await db().siteImage.findUnique({ where: { slot }, select: { image: imageSelect } });
    return row?.image ?? null;
  });
}

/** Puts a new image in a slot (the jumbotron); the old one is removed once nothing uses it. */
export async function replaceSiteImage(slot: SiteImageSlot, image: Buffer, actor: AdminActor) {
  const upload = await uploadImage(image, "images");
  const updated = await commitFileChange(upload, async (tx, file) => {
    const previous = await tx.siteImage.findUnique({ where: { slot }, select: { image: imageSelect } });
    const row = await tx.siteImage.upsert({
      where: { slot },
      create: { slot, imageId: file!.id },
      update: { imageId: file!.id },
      select: { slot: true, image: imageSelect },
    });
    await logActivity(tx, actor, "site-image.replaced", activityMessage("admin.activitySiteImageReplaced", { slot }));
    return { result: row, replaced: [previous?.image ?? null] };
  });
  publish("images:changed", { action: "updated", records: [{ kind: "site-image", slot, image: updated.image }] });
  return updated;
}
