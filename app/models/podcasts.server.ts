import { createHash } from "node:crypto";
import sharp from "sharp";
import { db } from "~/services/db.server";
import { prepareImage } from "~/services/images.server";
import { publish } from "~/services/realtime.server";
import { UploadError } from "~/services/uploads.server";
import { logActivity, type AdminActor } from "./activity.server";
import { commitFileChange, uploadImage } from "./files.server";
import { getStationIdentity } from "./station.server";

export const cardSelect = {
  id: true,
  title: true,
  description: true,
  durationSeconds: true,
  publishedAt: true,
  cover: { select: { key: true, width: true, height: true, variantWidths: true } },
  audio: { select: { key: true, contentType: true, size: true } },
} as const;

/** The newest published episodes: the podcast cards of /listen (5) and /cardlistmore (10). */
export function listLatestEpisodes(limit: number) {
  return db().podcastEpisode.findMany({
    where: { publishedAt: { lte: new Date() }, listeningReady: true },
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    take: limit,
    select: cardSelect,
  });
}

export type EpisodeCard = Awaited<ReturnType<typeof listLatestEpisodes>>[number];

export function getPublishedEpisode(id: number) {
  return db().podcastEpisode.findFirst({
    where: { id, publishedAt: { lte: new Date() }, listeningReady: true },
    select: cardSelect,
  });
}

// ---- Card images (admin): each podcast card is an episode, its image the episode's cover.

const coverSelect = { select: { key: true, width: true, height: true, variantWidths: true, checksum: true } } as const;

/** The cards as the admin pages manage them, with the audio each card plays. */
export function listEpisodeCards(limit: number) {
  return db().podcastEpisode.findMany({
    where: { publishedAt: { lte: new Date() }, listeningReady: true },
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, title: true, publishedAt: true, cover: coverSelect, audio: { select: { id: true, key: true } } },
  });
}

export type EpisodeCardAdmin = Awaited<ReturnType<typeof listEpisodeCards>>[number];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The station's own artwork for a card without a custom image: its name on its accent colour. */
export async function renderStationCover(): Promise<Buffer> {
  const { name, accentColor } = getStationIdentity();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200" viewBox="0 0 1200 1200">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${accentColor}"/><stop offset="1" stop-color="#0b0b12"/></linearGradient></defs>
  <rect width="1200" height="1200" fill="url(#g)"/>
  <circle cx="600" cy="520" r="230" fill="none" stroke="#ffffff" stroke-opacity="0.85" stroke-width="28"/>
  <circle cx="600" cy="520" r="120" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="20"/>
  <circle cx="600" cy="520" r="38" fill="#ffffff"/>
  <text x="600" y="960" text-anchor="middle" font-family="DejaVu Sans, Nimbus Sans, Arial, sans-serif" font-weight="bold" font-size="96" letter-spacing="8" fill="#ffffff">${escapeXml(name.slice(0, 18))}</text>
  <text x="600" y="1050" text-anchor="middle" font-family="DejaVu Sans, Nimbus Sans, Arial, sans-serif" font-size="44" letter-spacing="14" fill="#ffffff" fill-opacity="0.8">PODCAST</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const stationCoverChecksums = new Map<string, Promise<string>>();

/** The checksum the station artwork has once stored, to tell cards that already show it. */
export function stationCoverChecksum(): Promise<string> {
  const { name, accentColor } = getStationIdentity();
  const id = `${name}\n${accentColor}`;
  if (!stationCoverChecksums.has(id)) {
    stationCoverChecksums.set(
      id,
      renderStationCover().then(async (png) =>
        createHash("sha256")
          .update((await prepareImage(png)).data)
          .digest("hex"),
      ),
    );
  }
  return stationCoverChecksums.get(id)!;
}

function cardName(episode: { id: number; title: string }): string {
  return `card #${episode.id} "${episode.title}"`;
}

async function switchCover(id: number, image: Buffer, actor: AdminActor, action: string, summary: (title: string) => string) {
  const upload = await uploadImage(image, "covers", { artwork: true });
  const episode = await commitFileChange(upload, async (tx, file) => {
    const previous = await tx.podcastEpisode.findUnique({ where: { id }, select: { id: true, title: true, cover: coverSelect } });
    if (!previous) throw new UploadError("That podcast card no longer exists.");
    const updated = await tx.podcastEpisode.update({ where: { id }, data: { coverId: file!.id }, select: { id: true, title: true, cover: coverSelect } });
    await logActivity(tx, actor, action, summary(cardName(updated)));
    return { result: updated, replaced: [previous.cover] };
  });
  publish("images:changed", { action: "updated", records: [{ kind: "episode-cover", episodeId: episode.id, image: episode.cover }] });
  return episode;
}

/** Changes a card's image (the episode's cover). */
export function replaceEpisodeCover(id: number, image: Buffer, actor: AdminActor) {
  return switchCover(id, image, actor, "card-image.replaced", (card) => `Changed the image of ${card}`);
}

/** Deletes a card's own image: the card falls back to the station's artwork, so it is never left without one. */
export async function resetEpisodeCover(id: number, actor: AdminActor) {
  return switchCover(id, await renderStationCover(), actor, "card-image.deleted", (card) => `Deleted the image of ${card} (now the station artwork)`);
}
