import type { BroadcastEvent, Graph, PodcastEpisode, RadioSeries, RadioStation, WithContext } from "schema-dts";
import type { StationIdentity } from "~/services/config.server";
import type { EpisodeShareInfo } from "~/utils/episode-share";
import { stationIconUrl } from "~/utils/station-icon";

/*
 * JSON-LD (schema.org) for search engines and link previews: the station as a RadioStation on
 * /listen, an episode as a PodcastEpisode on its play page, a show as a RadioSeries with its next
 * airings as BroadcastEvents. Typed with schema-dts, so a property schema.org does not have, or a
 * value of the wrong kind, does not compile.
 */

const absolute = (origin: string, path: string) => (/^https?:\/\//.test(path) ? path : `${origin}${path}`);

function radioStation(origin: string, station: StationIdentity): RadioStation & object {
  return {
    "@type": "RadioStation",
    "@id": `${origin}/#station`,
    name: station.name,
    description: station.tagline,
    url: `${origin}/listen`,
    logo: absolute(origin, stationIconUrl(station)),
    ...(station.socialLinks.length ? { sameAs: station.socialLinks.map((link) => link.url) } : {}),
  };
}

export function stationJsonLd(origin: string, station: StationIdentity): WithContext<RadioStation & object> {
  return { "@context": "https://schema.org", ...radioStation(origin, station) };
}

export function episodeJsonLd(
  share: EpisodeShareInfo,
  episode: { publishedAt: Date | string; durationSeconds: number; show: { name: string; slug: string } | null },
  origin: string,
): WithContext<PodcastEpisode> {
  return {
    "@context": "https://schema.org",
    "@type": "PodcastEpisode",
    "@id": share.pageUrl,
    url: share.pageUrl,
    name: share.title,
    description: share.description,
    datePublished: new Date(episode.publishedAt).toISOString(),
    timeRequired: `PT${Math.round(episode.durationSeconds)}S`,
    image: share.image.url,
    associatedMedia: {
      "@type": "AudioObject",
      contentUrl: share.audio.url,
      encodingFormat: share.audio.type,
      duration: `PT${Math.round(episode.durationSeconds)}S`,
    },
    partOfSeries: episode.show
      ? { "@type": "RadioSeries", name: episode.show.name, url: `${origin}/shows/${encodeURIComponent(episode.show.slug)}` }
      : { "@type": "PodcastSeries", name: share.stationName, url: `${origin}/listen`, webFeed: share.feedUrl },
    publisher: { "@id": `${origin}/#station` },
  };
}

export function showJsonLd(
  origin: string,
  station: StationIdentity,
  show: { slug: string; name: string; description: string; artwork: string | null },
  airings: { start: string; end: string }[],
): Graph {
  const url = `${origin}/shows/${encodeURIComponent(show.slug)}`;
  const series: RadioSeries = {
    "@type": "RadioSeries",
    "@id": `${url}#show`,
    name: show.name,
    description: show.description,
    url,
    ...(show.artwork ? { image: absolute(origin, show.artwork) } : {}),
  };
  const events: BroadcastEvent[] = airings.map((airing) => ({
    "@type": "BroadcastEvent",
    name: show.name,
    startDate: airing.start,
    endDate: airing.end,
    isLiveBroadcast: true,
    url,
    workPerformed: { "@id": `${url}#show` },
    publishedOn: { "@type": "BroadcastService", name: station.name, url: `${origin}/listen`, broadcaster: { "@id": `${origin}/#station` } },
  }));
  return { "@context": "https://schema.org", "@graph": [radioStation(origin, station), series, ...events] };
}
