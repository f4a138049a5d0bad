import type { LoaderFunctionArgs } from "@remix-run/node";
import { resolveLanguage } from "~/i18n/language.server";
import { webAppManifest } from "~/models/station.server";

// The name and an operator's STATION_TAGLINE are the station's own words, never translated; the
// default tagline and `lang` follow the language the installed app speaks to this visitor.
export async function loader({ request }: LoaderFunctionArgs) {
  const lang = await resolveLanguage(request);
  return new Response(JSON.stringify({ ...webAppManifest(lang), lang, dir: "ltr" }), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": "public, max-age=3600", Vary: "Cookie, Accept-Language" },
  });
}
