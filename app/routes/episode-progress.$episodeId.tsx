import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getCurrentUser } from "~/auth.server";
import { getEpisodeProgress, saveEpisodeProgress } from "~/models/episode-progress.server";

// GET/POST /episode-progress/:episodeId — a signed-in listener's place in an episode
// (the player resumes there on any device). Guests keep theirs in the browser.
function episodeIdFrom(value: string | undefined): number | null {
  return /^\d{1,9}$/.test(value ?? "") ? Number(value) : null;
}
const noStore = { "Cache-Control": "no-store" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const episodeId = episodeIdFrom(params.episodeId);
  if (episodeId === null) return new Response("No such episode", { status: 404 });
  const user = await getCurrentUser(request);
  if (!user) return new Response("Sign in to keep your place across devices", { status: 401, headers: noStore });
  return Response.json(await getEpisodeProgress(user.id, episodeId), { headers: noStore });
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "GET, POST" } });
  const episodeId = episodeIdFrom(params.episodeId);
  if (episodeId === null) return new Response("No such episode", { status: 404 });
  const user = await getCurrentUser(request);
  if (!user) return new Response("Sign in to keep your place across devices", { status: 401, headers: noStore });
  const result = await saveEpisodeProgress(user.id, episodeId, await request.formData());
  if (result.status === "not-found") return new Response("No such episode", { status: 404 });
  if (result.status === "invalid") return new Response(result.message, { status: 400, headers: noStore });
  return new Response(null, { status: 204, headers: noStore });
}
