import { useEffect, type RefObject } from "react";
import { parseStartTime } from "~/utils/episode-share";

const SAVE_EVERY_MS = 5_000;
// Closer than this to either end, there is nothing worth resuming.
const MARGIN_SECONDS = 5;

const storageKey = (episodeId: number) => `episode-position:${episodeId}`;

function readSaved(episodeId: number): number | null {
  try {
    const value = Number(window.localStorage.getItem(storageKey(episodeId)));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null; // storage may be disabled (private mode, policies)
  }
}

function writeSaved(episodeId: number, seconds: number | null): void {
  try {
    if (seconds === null) window.localStorage.removeItem(storageKey(episodeId));
    else window.localStorage.setItem(storageKey(episodeId), String(Math.floor(seconds)));
  } catch {
    // Nothing to do: the position simply is not remembered.
  }
}

/**
 * Remembers where this listener is in an episode (in this browser) and
 * starts there next time. A shared link's `?t=` wins over the remembered
 * position and starts playback at once where the browser allows it.
 */
export function useEpisodeResume(audio: RefObject<HTMLAudioElement>, episodeId: number): void {
  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    const shared = parseStartTime(new URLSearchParams(window.location.search).get("t"));
    const start = shared ?? readSaved(episodeId);

    const seekToStart = () => {
      if (start === null) return;
      const duration = element.duration;
      const fits = !Number.isFinite(duration) || start < duration - MARGIN_SECONDS;
      if (fits && Math.abs(element.currentTime - start) > 1) element.currentTime = start;
      // Browsers may refuse to play before the listener interacts; the position stays set either way.
      if (shared !== null && fits) void element.play().catch(() => {});
    };
    if (element.readyState >= HTMLMediaElement.HAVE_METADATA) seekToStart();
    else element.addEventListener("loadedmetadata", seekToStart, { once: true });

    let lastSaved = 0;
    const save = (force: boolean) => {
      if (!force && Date.now() - lastSaved < SAVE_EVERY_MS) return;
      lastSaved = Date.now();
      const { currentTime, duration } = element;
      const finished = Number.isFinite(duration) && currentTime >= duration - MARGIN_SECONDS;
      writeSaved(episodeId, currentTime < MARGIN_SECONDS || finished ? null : currentTime);
    };
    const onTimeUpdate = () => save(false);
    const onStop = () => save(true);
    const onEnded = () => writeSaved(episodeId, null);
    element.addEventListener("timeupdate", onTimeUpdate);
    element.addEventListener("pause", onStop);
    element.addEventListener("seeked", onStop);
    element.addEventListener("ended", onEnded);
    window.addEventListener("pagehide", onStop);
    return () => {
      element.removeEventListener("loadedmetadata", seekToStart);
      element.removeEventListener("timeupdate", onTimeUpdate);
      element.removeEventListener("pause", onStop);
      element.removeEventListener("seeked", onStop);
      element.removeEventListener("ended", onEnded);
      window.removeEventListener("pagehide", onStop);
      if (element.currentTime > 0) save(true);
    };
  }, [audio, episodeId]);
}
