import { stationTranslator } from "~/i18n/catalogs.server";
import { db } from "~/services/db.server";
import { cachedRead } from "~/services/read-cache.server";
import { getConfig } from "~/services/config.server";
import { isAllowedEmbedHost, sanitizeEmbed } from "~/services/embed-sanitizer.server";
import { publish } from "~/services/realtime.server";
import { embedCodeFromShareLink } from "~/utils/embed-share-link";
import { activityMessage, logActivity, type AdminActor } from "./activity.server";

/** The chart embeds in the order the admin arranged them. Codes are stored already sanitised. */
export function listEmbeds() {
  return cachedRead("embeds", () =>
    db().embed.findMany({
      orderBy: [{ position: "asc" }, { createdAt: "asc" }],
      select: { id: true, code: true, position: true, createdAt: true },
    }),
  );
}

export type AddEmbedResult = { status: "added"; id: string } | { status: "ignored" } | { status: "refused"; error: string };

/**
 * Adds pasted embed code or a Spotify/YouTube/SoundCloud share link (turned into that service's
 * player code first): ignored when blank, refused unless it is an allowed player, stored only in
 * its sanitised form.
 */
export async function addEmbed(input: string, actor: AdminActor): Promise<AddEmbedResult> {
  if (input.trim() === "") return { status: "ignored" };
  const allowList = getConfig().embedAllowedHosts;
  // A link carries no title: the player is named after its service, in the station's language like the sanitiser's default.
  const fromLink = embedCodeFromShareLink(
    input,
    (host) => isAllowedEmbedHost(host, allowList),
    (service) => stationTranslator().t("chart.shareLinkTitle", { service }),
  );
  const check = sanitizeEmbed(fromLink ?? input, allowList);
  if (!check.ok) return { status: "refused", error: check.error };
  const embed = await db().$transaction(async (tx) => {
    const last = await tx.embed.aggregate({ _max: { position: true } });
    const created = await tx.embed.create({
      data: { code: check.code, position: (last._max.position ?? 0) + 1 },
      select: { id: true, code: true, position: true, createdAt: true },
    });
    await logActivity(tx, actor, "embed.created", activityMessage("admin.activityEmbedAdded", { host: check.host }));
    return created;
  });
  publish("embeds:changed", { action: "created", records: [embed] });
  return { status: "added", id: embed.id };
}

/** Deletes an embed; false when it was already gone. */
export async function deleteEmbed(id: string, actor: AdminActor): Promise<boolean> {
  const removed = await db().$transaction(async (tx) => {
    const embed = await tx.embed.findUnique({ where: { id }, select: { id: true, code: true } });
    if (!embed) return null;
    await tx.embed.delete({ where: { id } });
    const check = sanitizeEmbed(embed.code);
    await logActivity(
      tx,
      actor,
      "embed.deleted",
      check.ok ? activityMessage("admin.activityEmbedDeleted", { host: check.host }) : activityMessage("admin.activityEmbedDeletedUnknown"),
    );
    return embed;
  });
  if (removed) publish("embeds:changed", { action: "deleted", records: [{ id: removed.id }] });
  return removed !== null;
}
