import { stationTranslator } from "~/i18n/catalogs.server";
import { uuidV5, type PodcastLiveItem } from "~/services/feeds.server";
import { listAirings } from "./schedule.server";

// Live items are announced this far ahead and kept this long after they ended.
const AHEAD_MS = 7 * 86_400_000;
const AFTER_MS = 86_400_000;
// Any fixed namespace: a live item's guid only has to stay the same for the same airing.
const LIVE_ITEM_NAMESPACE = "6f6a4a1e-3f0e-5a8b-9f0e-2b8c3d4e5f60";

/**
 * The feed's podcast:liveItem entries: the airing on air now ("live"), the next one
 * ("pending") and the last one that ended within a day ("ended"), each with the live
 * stream as its enclosure and /listen as its content link.
 */
export async function podcastLiveItems(baseUrl: string, now = new Date()): Promise<PodcastLiveItem[]> {
  const airings = await listAirings(new Date(now.getTime() - AFTER_MS), new Date(now.getTime() + AHEAD_MS));
  const ended = airings.filter((airing) => airing.end <= now).at(-1);
  const live = airings.find((airing) => airing.start <= now && airing.end > now);
  const pending = airings.find((airing) => airing.start > now);
  const chosen = [
    ...(ended ? [{ airing: ended, status: "ended" as const }] : []),
    ...(live ? [{ airing: live, status: "live" as const }] : []),
    ...(pending ? [{ airing: pending, status: "pending" as const }] : []),
  ];
  // The feed is one document for every reader: its words are in the station's language.
  const { t } = stationTranslator();
  return chosen.map(({ airing, status }) => ({
    guid: uuidV5(`${airing.slotId}@${airing.start.toISOString()}`, LIVE_ITEM_NAMESPACE),
    status,
    start: airing.start,
    end: airing.end,
    title: airing.name,
    description: t("podcast.liveItemDescription", { show: airing.name }),
    streamUrl: `${baseUrl}/stream/live`,
    link: `${baseUrl}/listen`,
  }));
}
