/**
 * A plain share link from Spotify, YouTube or SoundCloud turned into the service's own player
 * code (an <iframe>), which then goes through the same sanitiser as pasted embed code. Anything
 * that is not exactly such a link gives null: the caller treats the text as embed code.
 */

// A link is a line of text: longer input is pasted code (or an attack), never a share link.
const MAX_LINK_LENGTH = 500;
const SPOTIFY_ID = /^[A-Za-z0-9]{22}$/;
const SPOTIFY_LOCALE = /^intl-[a-z]{2}(-[a-z]{2})?$/i;
const SPOTIFY_TYPES = new Set(["track", "album", "playlist", "episode", "show"]);
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com"]);
const SOUNDCLOUD_HOSTS = new Set(["soundcloud.com", "www.soundcloud.com", "m.soundcloud.com"]);
const SOUNDCLOUD_NAME = /^[A-Za-z0-9_-]{1,100}$/;
// SoundCloud pages under a user that are not a track (a set is "/sets/name", handled apart).
const SOUNDCLOUD_USER_PAGES = new Set(["albums", "tracks", "popular-tracks", "reposts", "likes", "followers", "following", "comments", "sets"]);

const ALLOW = "autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture";

export type ShareLinkService = "Spotify" | "YouTube" | "SoundCloud";

/** What a share link is played with: the service's player address and the height the service gives it. */
interface Player {
  service: ShareLinkService;
  src: string;
  height: number;
}

function parseLink(input: string): URL | null {
  const text = input.trim();
  if (text.length === 0 || text.length > MAX_LINK_LENGTH || /\s/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password || url.port) return null;
  return url;
}

/** The path's segments; null when one is empty inside the path (a doubled slash) or encoded. */
function segments(url: URL): string[] | null {
  const parts = url.pathname.replace(/\/$/, "").split("/").slice(1);
  return parts.every((part) => part !== "" && !part.includes("%")) ? parts : null;
}

function spotify(url: URL): Player | null {
  let parts = segments(url);
  if (parts && parts.length === 3 && SPOTIFY_LOCALE.test(parts[0])) parts = parts.slice(1);
  if (!parts || parts.length !== 2) return null;
  const [type, id] = parts;
  if (!SPOTIFY_TYPES.has(type) || !SPOTIFY_ID.test(id)) return null;
  // Spotify's own sizes: the compact player for one track or episode, the list player otherwise.
  return { service: "Spotify", src: `https://open.spotify.com/embed/${type}/${id}`, height: type === "track" || type === "episode" ? 152 : 352 };
}

function youtubeId(url: URL): string | null {
  const parts = segments(url);
  if (!parts) return null;
  if (url.hostname === "youtu.be") return parts.length === 1 ? parts[0] : null;
  if (parts.length === 1 && parts[0] === "watch") return url.searchParams.getAll("v").length === 1 ? url.searchParams.get("v") : null;
  if (parts.length === 2 && (parts[0] === "shorts" || parts[0] === "live" || parts[0] === "embed")) return parts[1];
  return null;
}

function youtube(url: URL, allowsHost: (host: string) => boolean): Player | null {
  const id = youtubeId(url);
  if (!id || !YOUTUBE_ID.test(id)) return null;
  // The privacy-enhanced player (no cookies until play) where the station allows it.
  const host = allowsHost("www.youtube-nocookie.com") ? "www.youtube-nocookie.com" : "www.youtube.com";
  return { service: "YouTube", src: `https://${host}/embed/${id}`, height: 315 };
}

function soundcloud(url: URL): Player | null {
  const parts = segments(url);
  if (!parts || !parts.every((part) => SOUNDCLOUD_NAME.test(part))) return null;
  const isTrack = parts.length === 2 && !SOUNDCLOUD_USER_PAGES.has(parts[1]);
  const isSet = parts.length === 3 && parts[1] === "sets";
  if (!isTrack && !isSet) return null;
  const page = `https://soundcloud.com/${parts.join("/")}`;
  return { service: "SoundCloud", src: `https://w.soundcloud.com/player/?url=${encodeURIComponent(page)}`, height: isSet ? 450 : 166 };
}

function playerOf(url: URL, allowsHost: (host: string) => boolean): Player | null {
  if (url.hostname === "open.spotify.com") return spotify(url);
  if (url.hostname === "youtu.be" || YOUTUBE_HOSTS.has(url.hostname)) return youtube(url, allowsHost);
  if (SOUNDCLOUD_HOSTS.has(url.hostname)) return soundcloud(url);
  return null;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The player code for a share link (open.spotify.com/track/…, youtube.com/watch?v=…, youtu.be/…,
 * youtube.com/shorts/…, music.youtube.com, soundcloud.com/artist/track), or null.
 * `allowsHost` says which player hosts the station accepts (to pick YouTube's cookie-free one);
 * `titleFor` names the player after its service (a link carries no title of its own).
 */
export function embedCodeFromShareLink(input: string, allowsHost: (host: string) => boolean, titleFor: (service: ShareLinkService) => string): string | null {
  const url = parseLink(input);
  const player = url && playerOf(url, allowsHost);
  if (!player) return null;
  const title = escapeAttribute(titleFor(player.service));
  return `<iframe src="${player.src}" title="${title}" width="100%" height="${player.height}" allow="${ALLOW}"></iframe>`;
}
