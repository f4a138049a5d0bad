import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { episodeChapters, parseEpisodeId } from "~/models/episodes.server";

// GET /podcast/chapters/<id> — an episode's chapters (podcast:chapters), for podcast apps and the play page.
export async function loader({ params, request }: LoaderFunctionArgs) {
  const id = parseEpisodeId(params.episodeId);
  const chapters = id ? await episodeChapters(id) : null;
  if (!chapters)
    throw new Response((await requestTranslator(request)).t("podcast.noChapters"), { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(JSON.stringify(chapters), {
    headers: {
      "Content-Type": "application/json+chapters",
      // Web-based podcast players fetch chapters from their own origin.
      "Access-Control-Allow-Origin": "*",
      "Cache-Control": "public, max-age=300",
    },
  });
}
