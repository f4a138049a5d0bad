import type { ActionFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import type { MessageKey } from "~/i18n/keys";
import { recordPlay } from "~/models/plays.server";
import { readJson } from "~/services/form-body.server";
import { getListenerSession, listenerSessionStorage } from "~/services/session.server";

const postOnly = () => new Response(null, { status: 405, headers: { Allow: "POST" } });
// A report is a few numbers; anything bigger is not one.
const MAX_REPORT_BYTES = 1024;

// Refusals only: a counted play answers without reading the listener's language.
async function refusal(request: Request, key: MessageKey, init: ResponseInit): Promise<Response> {
  return new Response((await requestTranslator(request)).t(key), init);
}

export const loader = postOnly;

/**
 * `{"heardSeconds": n}` from the player (app/utils/plays.ts); an empty or unreadable body reports
 * nothing heard. A body over MAX_REPORT_BYTES is refused with 413 while it arrives (thrown).
 */
async function readHeardSeconds(request: Request): Promise<number> {
  const body = await readJson(request, MAX_REPORT_BYTES);
  const heard = typeof body === "object" && body !== null ? (body as { heardSeconds?: unknown }).heardSeconds : undefined;
  return typeof heard === "number" && Number.isFinite(heard) && heard >= 0 ? heard : 0;
}

// POST /plays/:episodeId — the player reports an episode it plays: 202 while not (yet) counted, 204 once counted.
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const heardSeconds = await readHeardSeconds(request);
  const session = await getListenerSession(request);
  const listener = { listenerId: session.get("listenerId"), playStarts: session.get("playStarts") };
  const result = await recordPlay(listener, params.episodeId, context.clientIp, { heardSeconds });
  switch (result.status) {
    case "not-found":
      return refusal(request, "podcast.noSuchEpisode", { status: 404 });
    case "rate-limited":
      return refusal(request, "podcast.tooManyPlays", { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } });
    default: {
      let setCookie: string | null = null;
      if (result.remember) {
        session.set("listenerId", result.remember.listenerId);
        session.set("playStarts", result.remember.playStarts);
        setCookie = await listenerSessionStorage(request).commitSession(session);
      }
      return new Response(null, {
        status: result.status === "started" ? 202 : 204,
        headers: { "Cache-Control": "no-store", ...(setCookie ? { "Set-Cookie": setCookie } : {}) },
      });
    }
  }
}
