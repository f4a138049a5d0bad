/** The service a chart player comes from, by the host of its address. */
const PROVIDERS: { host: RegExp; name: string }[] = [
  { host: /(^|\.)spotify\.com$/, name: "Spotify" },
  { host: /(^|\.)(youtube\.com|youtube-nocookie\.com|youtu\.be)$/, name: "YouTube" },
  { host: /(^|\.)soundcloud\.com$/, name: "SoundCloud" },
  { host: /(^|\.)music\.apple\.com$/, name: "Apple Music" },
  { host: /(^|\.)deezer\.com$/, name: "Deezer" },
  { host: /(^|\.)mixcloud\.com$/, name: "Mixcloud" },
];

const SOUNDCLOUD_PAGE = /^https:\/\/soundcloud\.com\/[\w-]{1,100}(\/sets)?\/[\w-]{1,100}$/;

/**
 * Where a listener can open an embedded player's content directly (when the
 * player cannot load in the page): the service's name and a page address.
 */
export function embedSourceLink(src: string): { name: string; href: string } {
  const url = new URL(src);
  const provider = PROVIDERS.find((p) => p.host.test(url.hostname));
  const name = provider?.name ?? url.hostname.replace(/^www\./, "");
  if (provider?.name === "Spotify") {
    // open.spotify.com/embed/episode/ID → open.spotify.com/episode/ID
    return { name, href: `https://open.spotify.com${url.pathname.replace(/^\/embed(-podcast)?\//, "/")}` };
  }
  if (provider?.name === "YouTube") {
    const id = url.pathname.match(/^\/embed\/([\w-]+)/)?.[1];
    if (id) return { name, href: `https://www.youtube.com/watch?v=${id}` };
  }
  if (provider?.name === "SoundCloud") {
    // w.soundcloud.com/player/?url=https://soundcloud.com/artist/track → that track's page (an API address stays the player).
    const page = url.searchParams.get("url");
    if (page && SOUNDCLOUD_PAGE.test(page)) return { name, href: page };
  }
  return { name, href: url.href };
}
