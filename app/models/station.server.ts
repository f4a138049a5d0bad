import { getConfig, type StationIdentity } from "~/services/config.server";
import { peekSingleton } from "~/services/singleton.server";
import { stationIconUrl } from "~/utils/station-icon";

/** Who the station is: name, tagline, colours and links shown across the site. */
export function getStationIdentity(): StationIdentity {
  return getConfig().station;
}

/** The web app manifest: installable with the station's own name, colours and icon. */
export function webAppManifest() {
  const station = getStationIdentity();
  const icon = stationIconUrl(station);
  const isSvg = icon.endsWith(".svg");
  return {
    name: station.name,
    short_name: station.name.length > 12 ? station.name.split(/\s+/)[0] : station.name,
    description: station.tagline,
    start_url: "/listen",
    scope: "/",
    display: "standalone",
    background_color: "#0b0b12",
    theme_color: station.accentColor,
    icons: isSvg
      ? [{ src: icon, sizes: "any", type: "image/svg+xml", purpose: "any" }]
      : [{ src: icon, sizes: "512x512", purpose: "any" }],
  };
}

/** A square badge with the station's initials in its accent colour (the default icon). */
export function stationIconSvg(): string {
  const station = getStationIdentity();
  const initials = station.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join("")
    .replace(/[<>&"']/g, "");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="112" fill="${station.accentColor}"/><circle cx="256" cy="256" r="170" fill="none" stroke="#14060b" stroke-width="24" opacity=".25"/><text x="256" y="256" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-weight="800" font-size="190" fill="#14060b">${initials}</text></svg>`;
}

interface DemoStream {
  nowPlaying(): string;
}

const NOW_PLAYING_TTL_MS = 15_000;
const ICY_TIMEOUT_MS = 5_000;
let cachedTitle: { title: string | null; at: number } | null = null;

/** Reads the first ICY `StreamTitle` from an Icecast/SHOUTcast stream, then hangs up. */
export async function readIcyTitle(url: string, timeoutMs = ICY_TIMEOUT_MS): Promise<string | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, { headers: { "Icy-MetaData": "1" }, signal: controller.signal });
    const metaInterval = Number(response.headers.get("icy-metaint"));
    if (!response.ok || !response.body || !Number.isInteger(metaInterval) || metaInterval <= 0) return null;
    const reader = response.body.getReader();
    let buffered = new Uint8Array(0);
    try {
      while (true) {
        const lengthByteAt = metaInterval;
        if (buffered.length > lengthByteAt) {
          const blockLength = buffered[lengthByteAt] * 16;
          if (blockLength === 0) return null;
          if (buffered.length >= lengthByteAt + 1 + blockLength) {
            const text = new TextDecoder().decode(buffered.subarray(lengthByteAt + 1, lengthByteAt + 1 + blockLength));
            const title = /StreamTitle='(.*?)';/s.exec(text.replace(/\0+$/, ""))?.[1]?.trim();
            return title ? title : null;
          }
        }
        const { value, done } = await reader.read();
        if (done) return null;
        const next = new Uint8Array(buffered.length + value.length);
        next.set(buffered);
        next.set(value, buffered.length);
        buffered = next;
      }
    } finally {
      void reader.cancel().catch(() => {});
    }
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** What is on air now, when the stream says so: the demo stream's track, or the operator stream's ICY title. */
export async function getNowPlaying(): Promise<string | null> {
  const streamUrl = getConfig().streamUrl;
  if (!streamUrl) return peekSingleton<DemoStream>("demoStream")?.nowPlaying() ?? null;
  // One upstream peek per interval, however many listeners ask.
  if (cachedTitle && Date.now() - cachedTitle.at < NOW_PLAYING_TTL_MS) return cachedTitle.title;
  const title = await readIcyTitle(streamUrl);
  cachedTitle = { title, at: Date.now() };
  return title;
}
