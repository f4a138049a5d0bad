import { v5 as uuidv5 } from "uuid";
import type { Language } from "~/i18n/languages";
import { getConfig } from "~/services/config.server";
import { artworkKey, mediaUrl } from "~/utils/media";
import { wallTimeAt, zoneOffsetMinutes, type WallTime } from "~/utils/time-zone";

/*
 * Text formats other apps subscribe to: the podcast RSS feed (RSS 2.0 with
 * Apple's itunes and the Podcasting 2.0 namespaces) and the events calendar
 * (iCalendar, RFC 5545). Pure functions: callers pass absolute URLs.
 */

// ---------------------------------------------------------------- RSS

export interface PodcastChannel {
  title: string;
  description: string;
  /** The station's site. */
  link: string;
  /** Where this feed is served (atom:link rel="self", podcast:guid). */
  feedUrl: string;
  /** BCP 47, e.g. "id". */
  language: string;
  imageUrl: string;
  author: string;
  ownerEmail: string | null;
  /** Apple Podcasts category and optional subcategory. */
  category: { name: string; subcategory?: string };
  /** The stored podcast:guid (see app/models/feed-identity.server.ts): never derived from the request. */
  guid: string;
  /** Set once the feed moved to a new public address: where apps should now subscribe. */
  newFeedUrl: string | null;
  /** Airings around now as podcast:liveItem (apps that support it show the station live). */
  liveItems?: PodcastLiveItem[];
}

export interface PodcastLiveItem {
  guid: string;
  status: "pending" | "live" | "ended";
  start: Date;
  end: Date;
  title: string;
  description: string;
  /** The live stream (the enclosure) and the page to listen on (podcast:contentLink). */
  streamUrl: string;
  link: string;
}

export interface PodcastPerson {
  name: string;
  /** Podcasting 2.0 person taxonomy role, e.g. "host". */
  role: string;
  href: string | null;
  img: string | null;
}

export interface PodcastItem {
  guid: string;
  title: string;
  description: string;
  link: string;
  publishedAt: Date;
  audio: { url: string; length: number; type: string };
  durationSeconds: number;
  imageUrl: string | null;
  transcript?: { url: string; type: "text/vtt" | "application/x-subrip"; language: string } | null;
  chaptersUrl?: string | null;
  people?: PodcastPerson[];
  season?: number | null;
  episode?: number | null;
}

export function escapeXml(text: string): string {
  return (
    text
      // Characters XML 1.0 forbids outright would make the whole feed unparsable.
      // eslint-disable-next-line no-control-regex -- control characters are what this matches
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

/** RFC 2822 date in UTC, as RSS 2.0's pubDate wants ("Thu, 15 Oct 2026 03:00:00 +0000"). */
export function rfc2822Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, "+0000");
}

/** itunes:duration as HH:MM:SS. */
export function itunesDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

// Podcasting 2.0: podcast:guid is a UUIDv5 of the feed URL (without scheme or trailing slash) in this namespace.
const PODCAST_GUID_NAMESPACE = "ead4c236-bf58-58c6-a2c6-a6b28d128cb6";

export function uuidV5(name: string, namespace: string): string {
  return uuidv5(name, namespace);
}

export function podcastGuid(feedUrl: string): string {
  return uuidV5(feedUrl.replace(/^[a-z]+:\/\//i, "").replace(/\/+$/, ""), PODCAST_GUID_NAMESPACE);
}

function element(name: string, text: string, indent: string): string {
  return `${indent}<${name}>${escapeXml(text)}</${name}>`;
}

function buildPodcastRss(channel: PodcastChannel, items: PodcastItem[]): string {
  const c = channel;
  const category = c.category.subcategory
    ? `    <itunes:category text="${escapeXml(c.category.name)}">\n      <itunes:category text="${escapeXml(c.category.subcategory)}"/>\n    </itunes:category>`
    : `    <itunes:category text="${escapeXml(c.category.name)}"/>`;
  const owner = [
    "    <itunes:owner>",
    element("itunes:name", c.author, "      "),
    ...(c.ownerEmail ? [element("itunes:email", c.ownerEmail, "      ")] : []),
    "    </itunes:owner>",
  ];
  const newest = items.reduce<Date | null>((latest, item) => (!latest || item.publishedAt > latest ? item.publishedAt : latest), null);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">`,
    "  <channel>",
    element("title", c.title, "    "),
    element("link", c.link, "    "),
    `    <atom:link href="${escapeXml(c.feedUrl)}" rel="self" type="application/rss+xml"/>`,
    element("description", c.description, "    "),
    element("language", c.language, "    "),
    ...(newest ? [element("lastBuildDate", rfc2822Date(newest), "    ")] : []),
    element("generator", c.title, "    "),
    "    <image>",
    element("url", c.imageUrl, "      "),
    element("title", c.title, "      "),
    element("link", c.link, "      "),
    "    </image>",
    `    <itunes:image href="${escapeXml(c.imageUrl)}"/>`,
    element("itunes:author", c.author, "    "),
    element("itunes:summary", c.description, "    "),
    ...owner,
    category,
    element("itunes:explicit", "false", "    "),
    element("itunes:type", "episodic", "    "),
    ...(c.newFeedUrl ? [element("itunes:new-feed-url", c.newFeedUrl, "    ")] : []),
    element("podcast:guid", c.guid, "    "),
    // Locked with the owner's address: a directory only lets the owner move the feed elsewhere.
    c.ownerEmail ? `    <podcast:locked owner="${escapeXml(c.ownerEmail)}">yes</podcast:locked>` : element("podcast:locked", "no", "    "),
    element("podcast:medium", "podcast", "    "),
    ...(c.liveItems ?? []).flatMap((live) => [
      `    <podcast:liveItem status="${live.status}" start="${live.start.toISOString()}" end="${live.end.toISOString()}">`,
      element("title", live.title, "      "),
      element("description", live.description, "      "),
      element("link", live.link, "      "),
      `      <guid isPermaLink="false">${escapeXml(live.guid)}</guid>`,
      // A stream has no length: 0, as the Podcasting 2.0 examples for live items do.
      `      <enclosure url="${escapeXml(live.streamUrl)}" length="0" type="audio/mpeg"/>`,
      `      <podcast:contentLink href="${escapeXml(live.link)}">Listen live</podcast:contentLink>`,
      "    </podcast:liveItem>",
    ]),
    ...items.flatMap((item) => [
      "    <item>",
      element("title", item.title, "      "),
      element("description", item.description, "      "),
      element("link", item.link, "      "),
      `      <guid isPermaLink="false">${escapeXml(item.guid)}</guid>`,
      element("pubDate", rfc2822Date(item.publishedAt), "      "),
      `      <enclosure url="${escapeXml(item.audio.url)}" length="${item.audio.length}" type="${escapeXml(item.audio.type)}"/>`,
      element("itunes:title", item.title, "      "),
      element("itunes:summary", item.description, "      "),
      element("itunes:duration", itunesDuration(item.durationSeconds), "      "),
      ...(item.imageUrl ? [`      <itunes:image href="${escapeXml(item.imageUrl)}"/>`] : []),
      element("itunes:explicit", "false", "      "),
      element("itunes:episodeType", "full", "      "),
      ...(item.season ? [element("itunes:season", String(item.season), "      "), element("podcast:season", String(item.season), "      ")] : []),
      ...(item.episode ? [element("itunes:episode", String(item.episode), "      "), element("podcast:episode", String(item.episode), "      ")] : []),
      ...(item.transcript
        ? [
            `      <podcast:transcript url="${escapeXml(item.transcript.url)}" type="${item.transcript.type}" language="${escapeXml(item.transcript.language)}"/>`,
          ]
        : []),
      ...(item.chaptersUrl ? [`      <podcast:chapters url="${escapeXml(item.chaptersUrl)}" type="application/json+chapters"/>`] : []),
      ...(item.people ?? []).map(
        (person) =>
          `      <podcast:person role="${escapeXml(person.role)}"${person.img ? ` img="${escapeXml(person.img)}"` : ""}${person.href ? ` href="${escapeXml(person.href)}"` : ""}>${escapeXml(person.name)}</podcast:person>`,
      ),
      "    </item>",
    ]),
    "  </channel>",
    "</rss>",
    "",
  ];
  return lines.join("\n");
}

/** A stored file as the feed needs it: its media URL comes from its key. */
interface FeedFile {
  key: string;
  contentType: string;
  artworkSize: number | null;
}

/** A published episode with its audio's stored byte length (episodes without stored audio are left out by the caller). */
export interface FeedEpisode {
  id: number;
  guid: string;
  title: string;
  description: string;
  publishedAt: Date;
  durationSeconds: number;
  audio: FeedFile;
  audioSize: number;
  cover: FeedFile;
  transcript: FeedFile | null;
  chapters: unknown;
  seasonNumber: number | null;
  episodeNumber: number | null;
  credits: { role: string; crewMember: { name: string; image: FeedFile } }[];
}

export type PodcastFeed = { redirectTo: string } | { xml: string };

// Apple Podcasts category for a campus station's talk shows.
const FEED_CATEGORY = { name: "Society & Culture" };

/** The URL of a stored image's square JPEG for podcast apps, or null when it has none. */
function artworkUrl(baseUrl: string, file: { key: string; artworkSize: number | null }): string | null {
  return file.artworkSize ? `${baseUrl}${mediaUrl({ key: artworkKey(file.key) })}` : null;
}

/** Where podcast apps fetch an episode's JSON chapters. */
function chaptersPath(episodeId: number): string {
  return `/podcast/chapters/${episodeId}`;
}

/** The podcast's RSS document for the station at `baseUrl` (its canonical origin). */
export function podcastFeedXml(
  feed: {
    baseUrl: string;
    station: { name: string; tagline: string };
    ownerEmail: string | null;
    guid: string;
    newFeedUrl: string | null;
    liveItems?: PodcastLiveItem[];
    /**
     * The language its shows speak. Directories list a feed under one language, whoever
     * reads it, so this is the station's (STATION_LANGUAGE), never a visitor's.
     */
    language?: Language;
  },
  episodes: FeedEpisode[],
): string {
  const { baseUrl, station } = feed;
  const language = feed.language ?? getConfig().stationLanguage;
  const items: PodcastItem[] = episodes.map((episode) => {
    const transcriptType = episode.transcript?.contentType;
    return {
      guid: episode.guid,
      title: episode.title,
      description: episode.description,
      link: `${baseUrl}/play/${episode.id}`,
      publishedAt: episode.publishedAt,
      audio: { url: `${baseUrl}${mediaUrl(episode.audio)}`, length: episode.audioSize, type: episode.audio.contentType },
      durationSeconds: episode.durationSeconds,
      // Only the square JPEG: directories refuse WebP; without one the show's artwork applies.
      imageUrl: artworkUrl(baseUrl, episode.cover),
      transcript:
        episode.transcript && (transcriptType === "text/vtt" || transcriptType === "application/x-subrip")
          ? { url: `${baseUrl}${mediaUrl(episode.transcript)}`, type: transcriptType, language }
          : null,
      chaptersUrl: Array.isArray(episode.chapters) && episode.chapters.length > 0 ? `${baseUrl}${chaptersPath(episode.id)}` : null,
      people: episode.credits.map((credit) => ({
        name: credit.crewMember.name,
        role: credit.role,
        href: `${baseUrl}/CrewSpin`,
        img: artworkUrl(baseUrl, credit.crewMember.image),
      })),
      season: episode.seasonNumber,
      episode: episode.episodeNumber,
    };
  });
  return buildPodcastRss(
    {
      title: station.name,
      description: station.tagline,
      link: `${baseUrl}/listen`,
      feedUrl: `${baseUrl}/podcast.xml`,
      language,
      // Always our own square JPEG: STATION_LOGO_URL may be any format or size.
      imageUrl: `${baseUrl}/podcast-artwork.jpg`,
      author: station.name,
      ownerEmail: feed.ownerEmail,
      category: FEED_CATEGORY,
      guid: feed.guid,
      newFeedUrl: feed.newFeedUrl,
      liveItems: feed.liveItems,
    },
    items,
  );
}

// ---------------------------------------------------------------- iCalendar

export interface CalendarEvent {
  uid: string;
  summary: string;
  /** Wall-clock start in the calendar's time zone. */
  start: WallTime;
  durationMinutes: number;
  url: string;
  imageUrl: string | null;
  /** When the event was last written (DTSTAMP). */
  stamp: Date;
}

export interface Calendar {
  name: string;
  description: string;
  /** IANA zone the events' wall times are in (STATION_TIMEZONE). */
  timeZone: string;
  /** Product identifier, e.g. "-//SPIN RADIO//Events//EN". */
  productId: string;
  events: CalendarEvent[];
}

/** TEXT values per RFC 5545 3.3.11: backslash, semicolon, comma and newlines escaped. */
export function escapeIcsText(text: string): string {
  return (
    text
      .replace(/\\/g, "\\\\")
      .replace(/;/g, "\\;")
      .replace(/,/g, "\\,")
      .replace(/\r\n|\r|\n/g, "\\n")
      // eslint-disable-next-line no-control-regex -- control characters are what this matches
      .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, "")
  );
}

/**
 * Folds a content line to at most 75 octets per physical line (RFC 5545 3.1),
 * never splitting a UTF-8 character; continuation lines start with a space.
 */
export function foldIcsLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, "utf8");
    // The first line holds 75 octets; continuations 74 after their leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function icsWallTime(w: WallTime): string {
  return `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}T${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;
}

function icsUtc(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

function icsOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

interface OffsetChange {
  at: Date;
  from: number;
  to: number;
}

/** The instants in [from, to) where the zone's UTC offset changes, to the minute. */
export function offsetTransitions(timeZone: string, from: Date, to: Date): OffsetChange[] {
  const changes: OffsetChange[] = [];
  const DAY = 86_400_000;
  let previous = zoneOffsetMinutes(from, timeZone);
  for (let t = from.getTime() + DAY; t < to.getTime() + DAY; t += DAY) {
    const offset = zoneOffsetMinutes(new Date(t), timeZone);
    if (offset === previous) continue;
    let low = t - DAY;
    let high = t;
    while (high - low > 60_000) {
      const middle = Math.floor((low + high) / 2 / 60_000) * 60_000;
      if (zoneOffsetMinutes(new Date(middle), timeZone) === previous) low = middle;
      else high = middle;
    }
    changes.push({ at: new Date(high), from: previous, to: offset });
    previous = offset;
  }
  return changes;
}

/**
 * A VTIMEZONE that spells out the zone's actual offsets over the years the
 * events span: explicit onsets, no recurrence rules, so every calendar app
 * reads it the same way.
 */
export function buildVTimezone(timeZone: string, years: { first: number; last: number }): string[] {
  const from = new Date(Date.UTC(years.first - 1, 0, 1));
  const to = new Date(Date.UTC(years.last + 2, 0, 1));
  const initial = zoneOffsetMinutes(from, timeZone);
  const transitions = offsetTransitions(timeZone, from, to);
  const observance = (kind: "STANDARD" | "DAYLIGHT", onset: WallTime, offsetFrom: number, offsetTo: number) => [
    `BEGIN:${kind}`,
    `DTSTART:${icsWallTime(onset)}`,
    `TZOFFSETFROM:${icsOffset(offsetFrom)}`,
    `TZOFFSETTO:${icsOffset(offsetTo)}`,
    `END:${kind}`,
  ];
  const standardOffset = Math.min(initial, ...transitions.map((change) => change.to));
  const lines = ["BEGIN:VTIMEZONE", `TZID:${timeZone}`];
  lines.push(...observance(initial > standardOffset ? "DAYLIGHT" : "STANDARD", wallTimeAt(from, "UTC"), initial, initial));
  for (const change of transitions) {
    // An onset is the wall time under the offset in force before the change.
    const onset = wallTimeAt(new Date(change.at.getTime() + change.from * 60_000), "UTC");
    lines.push(...observance(change.to > standardOffset ? "DAYLIGHT" : "STANDARD", onset, change.from, change.to));
  }
  lines.push("END:VTIMEZONE");
  return lines;
}

export function buildCalendar(calendar: Calendar): string {
  const years = calendar.events.map((event) => event.start.year);
  const now = new Date().getUTCFullYear();
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:${calendar.productId}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `NAME:${escapeIcsText(calendar.name)}`,
    `X-WR-CALNAME:${escapeIcsText(calendar.name)}`,
    `DESCRIPTION:${escapeIcsText(calendar.description)}`,
    `X-WR-CALDESC:${escapeIcsText(calendar.description)}`,
    `X-WR-TIMEZONE:${calendar.timeZone}`,
    "REFRESH-INTERVAL;VALUE=DURATION:PT6H",
    "X-PUBLISHED-TTL:PT6H",
    ...buildVTimezone(calendar.timeZone, { first: Math.min(now, ...years), last: Math.max(now, ...years) }),
    ...calendar.events.flatMap((event) => [
      "BEGIN:VEVENT",
      `UID:${event.uid}`,
      `DTSTAMP:${icsUtc(event.stamp)}`,
      `DTSTART;TZID=${calendar.timeZone}:${icsWallTime(event.start)}`,
      `DURATION:PT${event.durationMinutes}M`,
      `SUMMARY:${escapeIcsText(event.summary)}`,
      `URL;VALUE=URI:${event.url}`,
      ...(event.imageUrl ? [`IMAGE;VALUE=URI;DISPLAY=BADGE:${event.imageUrl}`, `ATTACH:${event.imageUrl}`] : []),
      "END:VEVENT",
    ]),
    "END:VCALENDAR",
  ];
  return lines.map(foldIcsLine).join("\r\n") + "\r\n";
}
