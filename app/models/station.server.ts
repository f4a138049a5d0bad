import { getConfig, type StationIdentity } from "~/services/config.server";
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
    icons: isSvg ? [{ src: icon, sizes: "any", type: "image/svg+xml", purpose: "any" }] : [{ src: icon, sizes: "512x512", purpose: "any" }],
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
