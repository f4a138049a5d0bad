import type { MetaDescriptor } from "@remix-run/node";
import type { Translator } from "~/i18n/translate";
import { embedHeight, embedPath, readWidgetOptions } from "~/widgets/options";
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
  /** The episode's iframe player (/embed/episode/{id}) and its size, for cards that play in place. */
  player: { url: string; width: number; height: number };
  /** Where oEmbed consumers ask for the player (the page's discovery link). */
  oembedUrl: string;
}

// Large enough for link previews, small enough to fetch quickly.
const SHARE_IMAGE_WIDTH = 1280;
// The iframe player's width in cards and oEmbed answers (it shrinks to fit narrower ones).
const PLAYER_WIDTH = 480;

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
  const { options } = readWidgetOptions("episode", (name) => (name === "episode" ? String(episode.id) : null));
  return {
    stationName,
    title: episode.title,
    description: episode.description,
    pageUrl: `${baseUrl}/play/${episode.id}`,
    image: { url: `${baseUrl}${mediaUrl(cover, variant)}`, width, height },
    audio: { url: `${baseUrl}${mediaUrl(episode.audio)}`, type: episode.audio.contentType },
    feedUrl: `${baseUrl}/podcast.xml`,
    player: { url: `${baseUrl}${embedPath("episode", options)}`, width: PLAYER_WIDTH, height: embedHeight("episode", options) },
    oembedUrl: `${baseUrl}/oembed?${new URLSearchParams({ url: `${baseUrl}/play/${episode.id}`, format: "json" })}`,
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
    { property: "og:audio:secure_url", content: info.audio.url },
    { property: "og:audio:type", content: info.audio.type },
    // A "player" card plays the episode in place (the iframe player); the square cover stays its image.
    { name: "twitter:card", content: "player" },
    { name: "twitter:title", content: info.title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: info.image.url },
    { name: "twitter:image:alt", content: imageAlt },
    { name: "twitter:player", content: info.player.url },
    { name: "twitter:player:width", content: String(info.player.width) },
    { name: "twitter:player:height", content: String(info.player.height) },
    { name: "twitter:player:stream", content: info.audio.url },
    { name: "twitter:player:stream:content_type", content: info.audio.type },
    { tagName: "link", rel: "alternate", type: "application/json+oembed", href: info.oembedUrl, title: info.title },
  ];
}

/** Absolute addresses for sharing the live stream from a page (/listen, a show's page). */
export interface LiveShareInfo {
  stationName: string;
  title: string;
  description: string;
  pageUrl: string;
  imageUrl: string;
  streamUrl: string;
  player: { url: string; width: number; height: number };
  oembedUrl: string;
}

export function liveShareInfo(
  baseUrl: string,
  page: { path: string; title: string; description: string; imageUrl: string; stationName: string },
): LiveShareInfo {
  const { options } = readWidgetOptions("player", () => null);
  const pageUrl = `${baseUrl}${page.path}`;
  return {
    stationName: page.stationName,
    title: page.title,
    description: page.description,
    pageUrl,
    imageUrl: /^https?:\/\//.test(page.imageUrl) ? page.imageUrl : `${baseUrl}${page.imageUrl}`,
    streamUrl: `${baseUrl}/stream/live`,
    player: { url: `${baseUrl}${embedPath("player", options)}`, width: PLAYER_WIDTH, height: embedHeight("player", options) },
    oembedUrl: `${baseUrl}/oembed?${new URLSearchParams({ url: pageUrl, format: "json" })}`,
  };
}

/** OpenGraph, a Twitter player card and the oEmbed discovery link for a page that plays the live stream. */
export function liveShareMeta(info: LiveShareInfo): MetaDescriptor[] {
  return [
    { tagName: "link", rel: "alternate", type: "application/json+oembed", href: info.oembedUrl, title: info.title },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: info.stationName },
    { property: "og:url", content: info.pageUrl },
    { property: "og:title", content: info.title },
    { property: "og:description", content: info.description },
    { property: "og:image", content: info.imageUrl },
    { property: "og:audio", content: info.streamUrl },
    { property: "og:audio:type", content: "audio/mpeg" },
    { name: "twitter:card", content: "player" },
    { name: "twitter:title", content: info.title },
    { name: "twitter:description", content: info.description },
    { name: "twitter:image", content: info.imageUrl },
    { name: "twitter:player", content: info.player.url },
    { name: "twitter:player:width", content: String(info.player.width) },
    { name: "twitter:player:height", content: String(info.player.height) },
  ];
}
