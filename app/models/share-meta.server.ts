import type { MetaDescriptor } from "@remix-run/node";
import { liveShareInfo, liveShareMeta } from "~/utils/episode-share";
import { stationIconUrl } from "~/utils/station-icon";

/**
 * The share tags (OpenGraph, the Twitter player card, the oEmbed discovery link) of a page that
 * plays the live stream: /listen and a show's page. Their loaders make them and their `meta` only
 * spreads them, so the browser never downloads the code that words them (it counted against
 * /listen's first-load JavaScript budget, issue 14). The picture is the station's icon unless the
 * page has its own.
 */
export function liveSharePageMeta(
  origin: string,
  station: { name: string; logoUrl: string | null },
  page: { path: string; title: string; description: string; imageUrl?: string | null },
): MetaDescriptor[] {
  return liveShareMeta(liveShareInfo(origin, { ...page, imageUrl: page.imageUrl ?? stationIconUrl(station), stationName: station.name }));
}
