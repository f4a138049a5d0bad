/**
 * The web player's listening sessions of the live stream, for the audience figures
 * (app/models/listening-sessions.server.ts): a session starts when the stream starts sounding,
 * sends a heartbeat every HEARTBEAT_SECONDS while the listener wants it (a drop and its reconnect
 * stay one session), and stops at their pause or when the page goes away. It lives as long as the
 * player, so page navigation does not end it. Fire and forget: a failed report never disturbs playback.
 */
import type { LiveStatus } from "./player";

/** As the server expects (HEARTBEAT_SECONDS in listening-sessions.server.ts). */
const HEARTBEAT_MS = 30_000;
const LISTENING: ReadonlySet<LiveStatus> = new Set(["playing", "buffering", "reconnecting", "connecting"]);

function report(event: "start" | "beat" | "stop", sessionId: string): void {
  const body = JSON.stringify({ event, sessionId });
  // A stop as the page unloads goes out as a beacon: fetch may be cancelled with the page.
  if (event === "stop" && typeof navigator.sendBeacon === "function" && navigator.sendBeacon("/listening", new Blob([body], { type: "application/json" })))
    return;
  fetch("/listening", { method: "POST", credentials: "same-origin", keepalive: true, headers: { "Content-Type": "application/json" }, body }).catch(() => {});
}

/** Follows the player's live status; returns the function that stops following (and ends an open session). */
export function trackLiveListening(player: { subscribe(listener: () => void): () => void; getState(): { live: { status: LiveStatus } } }): () => void {
  let sessionId: string | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    if (!sessionId) return;
    clearInterval(heartbeat);
    report("stop", sessionId);
    sessionId = null;
  };
  const update = () => {
    const status = player.getState().live.status;
    if (status === "playing" && !sessionId) {
      // getRandomValues, not randomUUID: a station served over plain HTTP is no secure context.
      const id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
      sessionId = id;
      report("start", id);
      heartbeat = setInterval(() => report("beat", id), HEARTBEAT_MS);
    } else if (sessionId && !LISTENING.has(status)) stop();
  };
  const unsubscribe = player.subscribe(update);
  window.addEventListener("pagehide", stop);
  update();
  return () => {
    unsubscribe();
    window.removeEventListener("pagehide", stop);
    stop();
  };
}
