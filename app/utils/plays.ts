/**
 * Play reports for TRENDING. Players call `reportPlay(episodeId, { heardSeconds, durationSeconds })`
 * whenever playback advances (e.g. on every `timeupdate`), with the seconds really heard so far
 * (playback added up, seeks not counted). The helper sends at most two requests per episode and
 * page: one when playback starts (the server notes the start and gives the listener their
 * anonymous id) and one once enough was heard (app/utils/play-rule.ts; the server counts the
 * play once per listener and day), plus one when the end is reached, so a short episode heard to
 * its end counts even when the half-way report came too early. Reports of one episode go one
 * after another: each carries the session cookie the one before was answered with. Fire and
 * forget: a failed report never disturbs playback.
 */
import { heardEnough } from "./play-rule";

export interface PlayProgress {
  heardSeconds: number;
  durationSeconds: number;
  /** Playback reached the end of the episode. */
  ended?: boolean;
}

// If the server did not count yet (its clock says too early), ask again after this much more.
const RETRY_AFTER_SECONDS = 10;

interface EpisodeReport {
  started: boolean;
  done: boolean;
  nextAt: number;
  sent: Promise<unknown>;
}

const reports = new Map<number, EpisodeReport>();

function send(episodeId: number, heardSeconds: number): Promise<number | null> {
  return fetch(`/plays/${episodeId}`, {
    method: "POST",
    credentials: "same-origin",
    keepalive: true,
    headers: { "Content-Type": "application/json" },
    // Not rounded down: 6.9 s heard of a 13 s episode is past its half, 6 is not.
    body: JSON.stringify({ heardSeconds }),
  }).then(
    (response) => response.status,
    () => null,
  );
}

export function reportPlay(episodeId: number, { heardSeconds, durationSeconds, ended = false }: PlayProgress): void {
  if (!Number.isSafeInteger(episodeId) || episodeId <= 0 || !Number.isFinite(heardSeconds)) return;
  let report = reports.get(episodeId);
  if (!report) {
    report = { started: false, done: false, nextAt: 0, sent: Promise.resolve() };
    reports.set(episodeId, report);
  }
  if (report.done) return;
  const current = report;
  if (!current.started) {
    current.started = true;
    current.sent = send(episodeId, heardSeconds);
    return;
  }
  if (!heardEnough(heardSeconds, durationSeconds) || (!ended && heardSeconds < current.nextAt)) return;
  current.nextAt = heardSeconds + RETRY_AFTER_SECONDS;
  current.sent = current.sent.then(() =>
    current.done
      ? undefined
      : send(episodeId, heardSeconds).then((status) => {
          if (status === 204 || status === 404 || status === 429) current.done = true;
        }),
  );
}
