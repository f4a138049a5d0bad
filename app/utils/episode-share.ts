import type { MetaDescriptor } from "@remix-run/node";
import type { Translator } from "~/i18n/translate";
import { mediaUrl, type MediaFile } from "./media";

/**
 * Where a shared link starts: `?t=90` (seconds), also `?t=1:30` or `?t=1m30s`
 * as other players write it. Null when absent or unreadable.
 */
export function parseStartTime(value: string | null | undefined): number | null {
  const text = value?.trim();
  if (!text) return null;
  let seconds: number | null = null;
  if (/^\d+(\.\d+)?$/.test(text)) seconds = Number(text);
  else if (/^\d{1,2}(:\d{1,2}){1,2}$/.test(text)) seconds = text.split(":").reduce((total, part) => total * 60 + Number(part), 0);
  else {
    const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
    if (match && match[0]) seconds = Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
  }
  return seconds !== null && Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : null;
}

/** The page's address with `?t=` set to the whole second now playing (removed at the start). */
export function shareUrlAt(href: string, seconds: number): string {
  const url = new URL(href);
  url.hash = "";
  const whole = Math.floor(seconds);
  if (whole >= 1) url.searchParams.set("t", String(whole));
  else url.searchParams.delete("t");
  return url.href;
}

export interface EpisodeShareInfo {
  stationName: string;
  title: string;
  description: string;
  /** Absolute address of the play page, without `?t=`. */
  pageUrl: string;
  /** Absolute address of a cover image and its size. */
  image: { url: string; width: number; height: number };
  audio: { url: string; type: string };
  feedUrl: string;
}

// Large enough for link previews, small enough to fetch quickly.
const SHARE_IMAGE_WIDTH = 1280;

/** Absolute addresses for sharing an episode; `baseUrl` is the site's public origin. */
export function episodeShareInfo(
  baseUrl: string,
  stationName: string,
  episode: { id: number; title: string; description: string; cover: MediaFile; audio: { key: string; contentType: string } },
): EpisodeShareInfo {
  const { cover } = episode;
  const variant = cover.variantWidths?.find((width) => width >= SHARE_IMAGE_WIDTH);
  const width = variant ?? cover.width ?? SHARE_IMAGE_WIDTH;
  const height = cover.width && cover.height ? Math.round((cover.height * width) / cover.width) : width;
  return {
    stationName,
    title: episode.title,
    description: episode.description,
    pageUrl: `${baseUrl}/play/${episode.id}`,
    image: { url: `${baseUrl}${mediaUrl(cover, variant)}`, width, height },
    audio: { url: `${baseUrl}${mediaUrl(episode.audio)}`, type: episode.audio.contentType },
    feedUrl: `${baseUrl}/podcast.xml`,
  };
}

/**
 * OpenGraph and Twitter card tags so a shared link shows the cover and title; plus canonical and feed links.
 * `t` (metaTranslator(matches).t in the route's meta) words the image's alt text and the feed's title;
 * without it they are English (callers not yet translated).
 */
export function episodeShareMeta(info: EpisodeShareInfo, t?: Translator["t"]): MetaDescriptor[] {
  const description = info.description.length > 200 ? `${info.description.slice(0, 197).trimEnd()}…` : info.description;
  const imageAlt = t ? t("player.coverOf", { title: info.title }) : `Cover of ${info.title}`;
  return [
    { tagName: "link", rel: "canonical", href: info.pageUrl },
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: t ? t("player.podcastFeed", { station: info.stationName }) : `${info.stationName} podcast`,
      href: info.feedUrl,
    },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: info.stationName },
    { property: "og:url", content: info.pageUrl },
    { property: "og:title", content: info.title },
    { property: "og:description", content: description },
    { property: "og:image", content: info.image.url },
    { property: "og:image:width", content: String(info.image.width) },
    { property: "og:image:height", content: String(info.image.height) },
    { property: "og:image:alt", content: imageAlt },
    { property: "og:audio", content: info.audio.url },
    { property: "og:audio:type", content: info.audio.type },
    // Covers are square: the "summary" card shows them whole.
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: info.title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: info.image.url },
    { name: "twitter:image:alt", content: imageAlt },
  ];
}
