import type { ActionFunctionArgs } from "@remix-run/node";
import { asksNotToBeTracked } from "~/models/audience.server";
import { reportWebSession, type WebSessionEvent } from "~/models/listening-sessions.server";
import { readJson } from "~/services/form-body.server";
import { getListenerSession } from "~/services/session.server";

const postOnly = () => new Response(null, { status: 405, headers: { Allow: "POST" } });
// `{"event":"beat","sessionId":"…"}` and nothing more.
const MAX_REPORT_BYTES = 256;
const EVENTS: readonly WebSessionEvent[] = ["start", "beat", "stop"];

export const loader = postOnly;

// POST /listening — the web player's live listening session (app/utils/listening-session.ts): 204, 400 or 429.
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const body = (await readJson(request, MAX_REPORT_BYTES)) as { event?: unknown; sessionId?: unknown } | null;
  const event = EVENTS.find((name) => name === body?.event);
  const sessionId = typeof body?.sessionId === "string" ? body.sessionId : "";
  if (!event) return new Response(null, { status: 400 });
  // The listener id the play counter gave this browser, when it has one: no new cookie for this.
  const listenerId = (await getListenerSession(request)).get("listenerId") ?? null;
  const result = await reportWebSession(event, sessionId, {
    address: context.clientIp,
    userAgent: request.headers.get("user-agent"),
    doNotTrack: asksNotToBeTracked(request.headers),
    listenerId,
  });
  if (result.status === "invalid") return new Response(null, { status: 400 });
  if (result.status === "rate-limited") return new Response(null, { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } });
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
