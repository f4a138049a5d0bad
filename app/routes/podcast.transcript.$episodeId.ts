import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { episodeTranscript, parseEpisodeId } from "~/models/episodes.server";

// GET /podcast/transcript/<id> — a published episode's transcript (WebVTT or SRT, as uploaded), for the play page.
export async function loader({ params, request }: LoaderFunctionArgs) {
  const id = parseEpisodeId(params.episodeId);
  const transcript = id ? await episodeTranscript(id) : null;
  if (!transcript)
    throw new Response((await requestTranslator(request)).t("podcast.noTranscript"), { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(transcript.data), {
    headers: { "Content-Type": `${transcript.contentType}; charset=utf-8`, "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=300" },
  });
}
