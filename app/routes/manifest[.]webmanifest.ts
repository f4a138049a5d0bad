import { webAppManifest } from "~/models/station.server";

export function loader() {
  return new Response(JSON.stringify(webAppManifest()), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": "public, max-age=3600" },
  });
}
