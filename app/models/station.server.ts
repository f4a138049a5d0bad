import { getConfig, type StationIdentity } from "~/services/config.server";

/** Who the station is: name, tagline, colours and links shown across the site. */
export function getStationIdentity(): StationIdentity {
  return getConfig().station;
}
