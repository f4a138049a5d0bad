import { getConfig } from "~/services/config.server";
import { mediaUrl, mediaUrlFor } from "~/utils/media";
import { stationIconUrl } from "~/utils/station-icon";
import { getEpisodePage } from "./episodes.server";
import { getNowPlaying, type NowPlaying } from "./now-playing.server";
import { getOnAir, listAirings, type Airing } from "./schedule.server";
import { listRecentSongs } from "./song-history.server";
import { getStationIdentity } from "./station.server";

/*
 * What the widgets on other sites (/widgets.js, /embed/...) read: public data only, the same for
 * every visitor, with absolute addresses on the site's origin (a widget runs on another one).
 */

const DAY_MS = 86_400_000;
// The schedule widget shows today or this week in the visitor's own zone: from a day before now
// to eight days after covers both for every zone on Earth.
const SCHEDULE_BEFORE_MS = DAY_MS;
const SCHEDULE_AFTER_MS = 8 * DAY_MS;

export interface WidgetStation {
  name: string;
  tagline: string;
  accent: string;
  logo: string;
  language: string;
  listenUrl: string;
  streamUrl: string;
}

export interface WidgetShow {
  name: string;
  hosts: string;
  start: string;
  end: string;
  artwork: string | null;
  url: string;
}

const absolute = (origin: string, path: string) => (/^https?:\/\//.test(path) ? path : `${origin}${path}`);

function widgetStation(origin: string): WidgetStation {
  const station = getStationIdentity();
  return {
    name: station.name,
    tagline: station.tagline,
    accent: station.accentColor,
    logo: absolute(origin, stationIconUrl(station)),
    language: getConfig().stationLanguage,
    listenUrl: `${origin}/listen`,
    streamUrl: `${origin}/stream/live`,
  };
}

function widgetShow(origin: string, airing: Airing): WidgetShow {
  return {
    name: airing.name,
    hosts: airing.hosts.map((host) => host.name).join(", "),
    start: airing.start.toISOString(),
    end: airing.end.toISOString(),
    artwork: airing.artwork && absolute(origin, airing.artwork),
    url: `${origin}/shows/${encodeURIComponent(airing.slug)}`,
  };
}

/** The live stream now: its title, whether it is on air, and the shows on now and next. */
export async function widgetNowPlaying(origin: string, at = new Date()) {
  const onAir = await getOnAir(at);
  const nowPlaying: NowPlaying = getNowPlaying();
  return {
    station: widgetStation(origin),
    nowPlaying,
    show: onAir.now && widgetShow(origin, onAir.now),
    next: onAir.next && widgetShow(origin, onAir.next),
  };
}

/** Every airing from a day before `at` to eight days after (the widget keeps the visitor's today or week). */
export async function widgetSchedule(origin: string, at = new Date()) {
  const airings = await listAirings(new Date(at.getTime() - SCHEDULE_BEFORE_MS), new Date(at.getTime() + SCHEDULE_AFTER_MS));
  return { station: widgetStation(origin), airings: airings.map((airing) => widgetShow(origin, airing)) };
}

/** The last `limit` songs of the station's song history, newest first. */
export async function widgetHistory(origin: string, limit: number) {
  const songs = await listRecentSongs(limit);
  return {
    station: widgetStation(origin),
    songs: songs.map((song) => ({ playedAt: song.playedAt, artist: song.artist, title: song.title, show: song.show?.name ?? null })),
  };
}

/** A published episode as the player and episode widgets show it; null when there is none with that id. */
export async function widgetEpisode(origin: string, id: number) {
  const episode = await getEpisodePage(id);
  if (!episode) return null;
  return {
    station: widgetStation(origin),
    episode: {
      id: episode.id,
      title: episode.title,
      description: episode.description,
      durationSeconds: episode.durationSeconds,
      publishedAt: episode.publishedAt.toISOString(),
      cover: absolute(origin, mediaUrlFor(episode.cover, 320)),
      audio: absolute(origin, mediaUrl(episode.audio)),
      audioType: episode.audio.contentType,
      url: `${origin}/play/${episode.id}`,
      show: episode.show?.name ?? null,
    },
  };
}

export type WidgetEpisode = NonNullable<Awaited<ReturnType<typeof widgetEpisode>>>["episode"];
