import { parseStartTime, episodeShareInfo } from "~/utils/episode-share";
import { embedHeight, embedPath, readWidgetOptions, type WidgetKind } from "~/widgets/options";
import { getEpisodePage } from "./episodes.server";
import { getShowBySlug } from "./shows.server";
import { getStationIdentity } from "./station.server";

/*
 * oEmbed (https://oembed.com): a site that is given the address of an episode, a show or the
 * listen page asks /oembed?url=... and gets the iframe player (type "rich") to put in its page.
 */

const DEFAULT_WIDTH = 480;
const MAX_DIMENSION = 10_000;

export type OembedAnswer = { status: 200; body: Record<string, string | number> } | { status: 400 | 404 | 501; message: string };

export interface OembedRequest {
  url: string | null;
  format: string | null;
  maxwidth: string | null;
  maxheight: string | null;
}

function dimension(value: string | null): number | null | undefined {
  if (value === null || value === "") return null;
  if (!/^\d{1,5}$/.test(value)) return undefined;
  const number = Number(value);
  return number >= 1 && number <= MAX_DIMENSION ? number : undefined;
}

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** What the page at `request.url` embeds as; `origin` is the site's (only its own pages have an answer). */
export async function oembedFor(origin: string, request: OembedRequest): Promise<OembedAnswer> {
  if (request.format !== null && request.format !== "json") return { status: 501, message: "Only format=json is offered" };
  const maxWidth = dimension(request.maxwidth);
  const maxHeight = dimension(request.maxheight);
  if (maxWidth === undefined || maxHeight === undefined) return { status: 400, message: "maxwidth and maxheight must be whole numbers from 1 to 10000" };
  let page: URL;
  try {
    page = new URL(request.url ?? "");
  } catch {
    return { status: 400, message: "url must be the address of a page of this station" };
  }
  if (page.origin !== origin) return { status: 404, message: "Not a page of this station" };

  const station = getStationIdentity();
  let kind: WidgetKind = "player";
  let episodeId: number | null = null;
  let title = station.name;
  let authorName = station.name;
  let authorUrl = `${origin}/listen`;
  let thumbnail: { url: string; width: number; height: number } | null = null;
  const episodeMatch = /^\/play\/(\d{1,9})$/.exec(page.pathname);
  const showMatch = /^\/shows\/([^/]{1,200})$/.exec(page.pathname);
  if (episodeMatch) {
    const episode = await getEpisodePage(Number(episodeMatch[1]));
    if (!episode) return { status: 404, message: "No such episode" };
    kind = "episode";
    episodeId = episode.id;
    title = episode.title;
    if (episode.show) {
      authorName = episode.show.name;
      authorUrl = `${origin}/shows/${encodeURIComponent(episode.show.slug)}`;
    }
    thumbnail = episodeShareInfo(origin, station.name, episode).image;
  } else if (showMatch) {
    let slug: string;
    try {
      slug = decodeURIComponent(showMatch[1]);
    } catch {
      return { status: 404, message: "No such show" };
    }
    const show = await getShowBySlug(slug);
    if (!show) return { status: 404, message: "No such show" };
    title = `${show.name} · ${station.name}`;
  } else if (page.pathname !== "/listen" && page.pathname !== "/") {
    return { status: 404, message: "This page has no embed" };
  }

  const { options } = readWidgetOptions(kind, (name) => (name === "episode" && episodeId !== null ? String(episodeId) : null));
  options.start = kind === "episode" ? parseStartTime(page.searchParams.get("t")) : null;
  const width = Math.min(DEFAULT_WIDTH, maxWidth ?? DEFAULT_WIDTH);
  const height = Math.min(embedHeight(kind, options), maxHeight ?? Infinity);
  const src = `${origin}${embedPath(kind, options)}`;
  const html = `<iframe src="${escapeAttribute(src)}" width="${width}" height="${height}" title="${escapeAttribute(title)}" loading="lazy" allow="autoplay" style="border:0;max-width:100%"></iframe>`;
  return {
    status: 200,
    body: {
      version: "1.0",
      type: "rich",
      provider_name: station.name,
      provider_url: `${origin}/`,
      title,
      author_name: authorName,
      author_url: authorUrl,
      html,
      width,
      height,
      cache_age: 3600,
      ...(thumbnail ? { thumbnail_url: thumbnail.url, thumbnail_width: thumbnail.width, thumbnail_height: thumbnail.height } : {}),
    },
  };
}
