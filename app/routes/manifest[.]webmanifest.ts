import type { LoaderFunctionArgs } from "@remix-run/node";
import { resolveLanguage } from "~/i18n/language.server";
import { webAppManifest } from "~/models/station.server";

// The name and description are the station's own words (STATION_NAME, STATION_TAGLINE), never
// translated; `lang` says which language they and the installed app speak to this visitor.
export async function loader({ request }: LoaderFunctionArgs) {
  const lang = await resolveLanguage(request);
  return new Response(JSON.stringify({ ...webAppManifest(), lang, dir: "ltr" }), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": "public, max-age=3600", Vary: "Cookie, Accept-Language" },
  });
}
