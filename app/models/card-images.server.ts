import { pageScoped, type AdminHandler } from "~/services/admin-forms.server";
import { UploadError } from "~/services/uploads.server";
import type { AdminActor } from "./activity.server";
import { listEpisodeCards, replaceEpisodeCover, resetEpisodeCover, stationCoverChecksum } from "./podcasts.server";

/** The newest cards for the admin pages, each marked when it already shows the station artwork. */
export async function listCardImages(limit: number) {
  const [cards, stationChecksum] = await Promise.all([listEpisodeCards(limit), stationCoverChecksum()]);
  return cards.map(({ cover: { checksum, ...cover }, ...card }) => ({ ...card, cover, isStationCover: checksum === stationChecksum }));
}

export type CardImage = Awaited<ReturnType<typeof listCardImages>>[number];

// Episode ids are PostgreSQL integers: anything larger cannot name one (and would fail the query).
const MAX_EPISODE_ID = 2_147_483_647;

function episodeId(value: string | undefined): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0 || id > MAX_EPISODE_ID) throw new UploadError("That podcast card does not exist.");
  return id;
}

/** The card-image forms of /dashboard-admin and /cardlistmoreadmin: change, delete (back to the station artwork), add. */
export function cardImageHandlers(actor: AdminActor): Record<string, AdminHandler> {
  return {
    "replace-card-image": async ({ fields, files }) => {
      if (!files.image) return { ok: false, message: "Choose an image first.", errors: { image: "Choose an image first." } };
      const card = await replaceEpisodeCover(episodeId(fields.id), files.image, actor);
      return { ok: true, message: `Image of "${card.title}" changed.` };
    },
    "reset-card-image": pageScoped(async ({ fields }) => {
      const card = await resetEpisodeCover(episodeId(fields.id), actor);
      return { ok: true, message: `Image of "${card.title}" deleted; the card now shows the station artwork.` };
    }),
  };
}
