import type { ActionFunctionArgs } from "@remix-run/node";
import { recordPlay } from "~/models/plays.server";

const postOnly = () => new Response(null, { status: 405, headers: { Allow: "POST" } });

export const loader = postOnly;

// POST /plays/:episodeId — the player reports the first play of an episode (app/utils/plays.ts).
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const result = await recordPlay(request, params.episodeId, context.clientIp);
  switch (result.status) {
    case "not-found":
      return new Response("No such episode", { status: 404 });
    case "rate-limited":
      return new Response("Too many plays", { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } });
    default:
      return new Response(null, {
        status: 204,
        headers: { "Cache-Control": "no-store", ...(result.setCookie ? { "Set-Cookie": result.setCookie } : {}) },
      });
  }
}
