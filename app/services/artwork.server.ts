import { createHash } from "node:crypto";
import sharp from "sharp";
import type { StationIdentity } from "~/services/config.server";
import { prepareImage } from "~/services/images.server";

/*
 * The station's own artwork, drawn from its name and accent colour: the square icon badge,
 * the podcast show artwork (JPEG, as directories require) and the cover a podcast card falls
 * back to. Pure drawing: callers pass the station identity.
 */

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A square badge with the station's initials in its accent colour (the default icon). */
export function stationIconSvg(station: StationIdentity): string {
  const initials = station.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join("")
    .replace(/[<>&"']/g, "");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="112" fill="${station.accentColor}"/><circle cx="256" cy="256" r="170" fill="none" stroke="#14060b" stroke-width="24" opacity=".25"/><text x="256" y="256" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-weight="800" font-size="190" fill="#14060b">${initials}</text></svg>`;
}

/** The station's own artwork for a card without a custom image: its name on its accent colour. */
export async function renderStationCover({ name, accentColor }: StationIdentity): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200" viewBox="0 0 1200 1200">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${accentColor}"/><stop offset="1" stop-color="#0b0b12"/></linearGradient></defs>
  <rect width="1200" height="1200" fill="url(#g)"/>
  <circle cx="600" cy="520" r="230" fill="none" stroke="#ffffff" stroke-opacity="0.85" stroke-width="28"/>
  <circle cx="600" cy="520" r="120" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="20"/>
  <circle cx="600" cy="520" r="38" fill="#ffffff"/>
  <text x="600" y="960" text-anchor="middle" font-family="DejaVu Sans, Nimbus Sans, Arial, sans-serif" font-weight="bold" font-size="96" letter-spacing="8" fill="#ffffff">${escapeXml(name.slice(0, 18))}</text>
  <text x="600" y="1050" text-anchor="middle" font-family="DejaVu Sans, Nimbus Sans, Arial, sans-serif" font-size="44" letter-spacing="14" fill="#ffffff" fill-opacity="0.8">PODCAST</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const stationCoverChecksums = new Map<string, Promise<string>>();

/** The checksum the station artwork has once stored, to tell cards that already show it. */
export function stationCoverChecksum(station: StationIdentity): Promise<string> {
  const id = `${station.name}\n${station.accentColor}`;
  if (!stationCoverChecksums.has(id)) {
    stationCoverChecksums.set(
      id,
      renderStationCover(station).then(async (png) =>
        createHash("sha256")
          .update((await prepareImage(png)).data)
          .digest("hex"),
      ),
    );
  }
  return stationCoverChecksums.get(id)!;
}

// Directories take 1400-3000 px; the badge is vector art, so it renders sharp at the largest.
const ARTWORK_SIZE = 3000;
let artwork: { svg: string; jpeg: Promise<Buffer> } | null = null;

/** The show's artwork: the station badge as an opaque square JPEG (podcast apps reject SVG and transparency). */
export function podcastArtwork(station: StationIdentity): Promise<Buffer> {
  const svg = stationIconSvg(station);
  if (artwork?.svg !== svg) {
    const jpeg = sharp(Buffer.from(svg), { density: Math.ceil((72 * ARTWORK_SIZE) / 512) })
      .resize(ARTWORK_SIZE, ARTWORK_SIZE)
      .flatten({ background: station.accentColor })
      .jpeg({ quality: 90 })
      .toBuffer();
    // A failed render is not remembered: the next request tries again.
    jpeg.catch(() => {
      if (artwork?.jpeg === jpeg) artwork = null;
    });
    artwork = { svg, jpeg };
  }
  return artwork.jpeg;
}

/** The app icons the manifest and iOS ask for (their shapes differ, see stationIconPng). */
export const APP_ICONS = {
  "icon-192.png": { size: 192, shape: "any" },
  "icon-512.png": { size: 512, shape: "any" },
  "maskable-512.png": { size: 512, shape: "maskable" },
  "apple-touch-icon.png": { size: 180, shape: "opaque" },
} as const;
export type AppIconName = keyof typeof APP_ICONS;

const appIcons = new Map<string, Promise<Buffer>>();

/**
 * The station badge as a PNG app icon. "any": the badge as drawn (rounded, transparent corners);
 * "maskable": the badge inside the central 80 % safe zone on a full square of the accent colour,
 * so any mask the launcher cuts keeps it whole; "opaque" (iOS, which rounds it itself and shows
 * transparency as black): the full square, corners filled.
 */
export function stationIconPng(station: StationIdentity, name: AppIconName): Promise<Buffer> {
  const { size, shape } = APP_ICONS[name];
  const svg = stationIconSvg(station);
  const id = `${name}\n${svg}`;
  let png = appIcons.get(id);
  if (!png) {
    const inner = shape === "maskable" ? Math.round(size * 0.72) : size;
    const badge = sharp(Buffer.from(svg), { density: Math.ceil((72 * inner) / 512) }).resize(inner, inner);
    png = (
      shape === "any"
        ? badge.png().toBuffer()
        : badge
            .png()
            .toBuffer()
            .then((art) =>
              sharp({ create: { width: size, height: size, channels: 4, background: station.accentColor } })
                .composite([{ input: art, gravity: "centre" }])
                .png()
                .toBuffer(),
            )
            // Flattened in a second pass: sharp composites after its other operations.
            .then((square) => sharp(square).flatten({ background: station.accentColor }).png().toBuffer())
    ).catch((error: unknown) => {
      appIcons.delete(id);
      throw error;
    });
    if (appIcons.size > 16) appIcons.clear();
    appIcons.set(id, png);
  }
  return png;
}
