import { stationIconSvg } from "~/models/station.server";

export function loader() {
  return new Response(stationIconSvg(), {
    headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=3600" },
  });
}
