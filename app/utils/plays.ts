/**
 * Tells the server an episode started playing (counts towards TRENDING once
 * per listener session). Fire and forget: a failed report never disturbs playback.
 */
export function reportPlay(episodeId: number): void {
  if (!Number.isSafeInteger(episodeId) || episodeId <= 0) return;
  fetch(`/plays/${episodeId}`, { method: "POST", credentials: "same-origin", keepalive: true }).catch(() => {});
}
