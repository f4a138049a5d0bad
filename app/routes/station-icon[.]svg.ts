import { getStationIdentity } from "~/models/station.server";
import { stationIconSvg } from "~/services/artwork.server";

export function loader() {
  return new Response(stationIconSvg(getStationIdentity()), {
    headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=3600" },
  });
}
