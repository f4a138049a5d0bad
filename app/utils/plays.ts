/**
 * Play reports for TRENDING. Players call `reportPlay(episodeId, { heardSeconds, durationSeconds })`
 * whenever playback advances (e.g. on every `timeupdate`), with the seconds really heard so far
 * (playback added up, seeks not counted). The helper sends at most two requests per episode and
 * page: one when playback starts (the server notes the start and gives the listener their
 * anonymous id) and one once 30 s, or half of a shorter episode, were heard (the server counts
 * the play once per listener and day). Fire and forget: a failed report never disturbs playback.
 */
export interface PlayProgress {
  heardSeconds: number;
  durationSeconds: number;
}

const THRESHOLD_SECONDS = 30;
// If the server did not count yet (its clock says too early), ask again after this much more.
const RETRY_AFTER_SECONDS = 10;

interface EpisodeReport {
  started: boolean;
  done: boolean;
  nextAt: number;
}

const reports = new Map<number, EpisodeReport>();

function send(episodeId: number, heardSeconds: number): Promise<number | null> {
  return fetch(`/plays/${episodeId}`, {
    method: "POST",
    credentials: "same-origin",
    keepalive: true,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ heardSeconds: Math.floor(heardSeconds) }),
  }).then(
    (response) => response.status,
    () => null,
  );
}

export function reportPlay(episodeId: number, { heardSeconds, durationSeconds }: PlayProgress): void {
  if (!Number.isSafeInteger(episodeId) || episodeId <= 0 || !Number.isFinite(heardSeconds)) return;
  let report = reports.get(episodeId);
  if (!report) {
    report = { started: false, done: false, nextAt: 0 };
    reports.set(episodeId, report);
  }
  if (report.done) return;
  if (!report.started) {
    report.started = true;
    void send(episodeId, heardSeconds);
    return;
  }
  const needed = durationSeconds > 0 && Number.isFinite(durationSeconds) ? Math.min(THRESHOLD_SECONDS, durationSeconds / 2) : THRESHOLD_SECONDS;
  if (heardSeconds < Math.max(needed, report.nextAt)) return;
  report.nextAt = heardSeconds + RETRY_AFTER_SECONDS;
  const current = report;
  void send(episodeId, heardSeconds).then((status) => {
    if (status === 204 || status === 404 || status === 429) current.done = true;
  });
}
