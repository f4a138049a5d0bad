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
