/**
 * When a play counts for TRENDING: once 30 s, or half of a shorter episode, were heard. One rule
 * for both sides: the player (app/utils/plays.ts) decides when to report with it, and the server
 * (app/models/plays.server.ts) decides whether to count with it, so the two cannot drift apart.
 */
export const PLAY_THRESHOLD_SECONDS = 30;

/** Seconds an episode of `durationSeconds` must be heard before its play counts. */
export function requiredSeconds(durationSeconds: number): number {
  return durationSeconds > 0 && Number.isFinite(durationSeconds) ? Math.min(PLAY_THRESHOLD_SECONDS, durationSeconds / 2) : PLAY_THRESHOLD_SECONDS;
}

/** Whether `heardSeconds` of listening make a play of an episode of `durationSeconds`. */
export function heardEnough(heardSeconds: number, durationSeconds: number): boolean {
  return Number.isFinite(heardSeconds) && heardSeconds >= requiredSeconds(durationSeconds);
}
