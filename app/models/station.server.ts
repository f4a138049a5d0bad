import { serverI18n } from "~/i18n/catalogs.server";
import type { Language } from "~/i18n/languages";
import { translator } from "~/i18n/translate";
import { getConfig, type StationIdentity } from "~/services/config.server";
import { stationIconUrl } from "~/utils/station-icon";

/**
 * Who the station is: name, tagline, colours and links shown across the site. The operator's
 * STATION_TAGLINE stays as written; without one, our default tagline is said in `language`
 * (the station's own language for documents everyone shares: feeds, calendars, the manifest).
 */
export function getStationIdentity(language: Language = getConfig().stationLanguage): StationIdentity {
  const { station } = getConfig();
  return { ...station, tagline: station.tagline ?? translator(serverI18n(language)).t("common.defaultTagline") };
}

/** The web app manifest: installable with the station's own name, colours and icons (PNG, drawn from its badge). */
export function webAppManifest(language: Language) {
  const station = getStationIdentity(language);
  const { t } = translator(serverI18n(language));
  const icon = stationIconUrl(station);
  const png = (name: string, sizes: string, purpose: string) => ({ src: `/icons/${name}`, sizes, type: "image/png", purpose });
  return {
    id: "/listen",
    name: station.name,
    short_name: station.name.length > 12 ? station.name.split(/\s+/)[0] : station.name,
    description: station.tagline,
    start_url: "/listen",
    scope: "/",
    display: "standalone",
    background_color: "#0b0b12",
    theme_color: station.accentColor,
    icons: [
      png("icon-192.png", "192x192", "any"),
      png("icon-512.png", "512x512", "any"),
      png("maskable-512.png", "512x512", "maskable"),
      icon.endsWith(".svg") ? { src: icon, sizes: "any", type: "image/svg+xml", purpose: "any" } : { src: icon, sizes: "512x512", purpose: "any" },
    ],
    shortcuts: [
      { name: t("common.shortcutLive"), url: "/listen", icons: [png("icon-192.png", "192x192", "any")] },
      { name: t("common.shortcutSchedule"), url: "/schedule", icons: [png("icon-192.png", "192x192", "any")] },
    ],
  };
}
