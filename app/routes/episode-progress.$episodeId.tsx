import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getCurrentUser } from "~/auth.server";
import { requestTranslator } from "~/i18n/language.server";
import type { MessageKey } from "~/i18n/keys";
import { getEpisodeProgress, saveEpisodeProgress } from "~/models/episode-progress.server";
import { readForm } from "~/services/form-body.server";

// GET/POST /episode-progress/:episodeId — a signed-in listener's place in an episode
// (the player resumes there on any device). Guests keep theirs in the browser.
function episodeIdFrom(value: string | undefined): number | null {
  return /^\d{1,9}$/.test(value ?? "") ? Number(value) : null;
}
const noStore = { "Cache-Control": "no-store" };

async function refusal(request: Request, key: MessageKey, status: number): Promise<Response> {
  return new Response((await requestTranslator(request)).t(key), { status, headers: noStore });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const episodeId = episodeIdFrom(params.episodeId);
  if (episodeId === null) return refusal(request, "podcast.noSuchEpisode", 404);
  const user = await getCurrentUser(request);
  if (!user) return refusal(request, "podcast.progressSignIn", 401);
  return Response.json(await getEpisodeProgress(user.id, episodeId), { headers: noStore });
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "GET, POST" } });
  const episodeId = episodeIdFrom(params.episodeId);
  if (episodeId === null) return refusal(request, "podcast.noSuchEpisode", 404);
  const user = await getCurrentUser(request);
  if (!user) return refusal(request, "podcast.progressSignIn", 401);
  const result = await saveEpisodeProgress(user.id, episodeId, await readForm(request));
  if (result.status === "not-found") return refusal(request, "podcast.noSuchEpisode", 404);
  if (result.status === "invalid") return refusal(request, result.message, 400);
  return new Response(null, { status: 204, headers: noStore });
}
