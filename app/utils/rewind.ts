/*
 * Rewinding the live stream (browser only): the bar's live stream stops and the rewind window
 * (/live.m3u8, HLS with a wall-clock time on every segment) plays in its own audio element.
 * Safari plays HLS itself; elsewhere hls.js is loaded the first time a listener rewinds, so
 * pages that never rewind never download it. The title follows the playhead: the song history
 * says what played at that moment.
 */
import type HlsType from "hls.js";
import { getPlayer, type RewindRemote } from "./player";
import type { RewindState, RewindStore } from "./rewind-state";

interface Song {
  playedAt: string;
  raw: string;
}

const PLAYLIST = "/live.m3u8";

class Rewind {
  private element: HTMLAudioElement | null = null;
  private hls: HlsType | null = null;
  private songs: { at: number; title: string }[] = [];
  private songsLoadedAt = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private unsubscribePlayer: (() => void) | null = null;

  // The state lives in ./rewind-state, which the bar reads before this module is loaded; it is
  // handed over rather than imported, so it stays in the root layout's own file.
  constructor(private readonly store: RewindStore) {}
  private get state(): RewindState {
    return this.store.get();
  }
  private set(change: Partial<RewindState>) {
    this.store.set(change);
  }

  /** Starts playing `secondsBack` behind now (or from a wall-clock moment), or moves there when already rewinding. */
  go = async (target: { secondsBack: number } | { at: number }) => {
    const at = "at" in target ? target.at : Date.now() - target.secondsBack * 1000;
    // Already rewinding (not just starting): move there.
    if (this.state.active && !this.state.loading && this.element) return this.seekTo(at);
    const player = getPlayer();
    player.stopLive();
    this.set({ ...this.store.idle, active: true, loading: true });
    const element = (this.element ??= document.createElement("audio"));
    element.setAttribute("data-testid", "rewind-audio");
    if (!element.isConnected) document.body.appendChild(element);
    // Starting the live stream or an episode ends rewinding.
    this.unsubscribePlayer = player.subscribe(() => {
      const { showing, live } = player.getState();
      if (this.state.active && (showing === "episode" || live.status !== "idle")) this.stop();
    });
    void this.loadInfo();
    try {
      // Safari (and iOS without MediaSource) play HLS with program date-times themselves; Chromium's own
      // HLS support does not expose them, so it gets hls.js like other browsers.
      const native = element.canPlayType("application/vnd.apple.mpegurl") !== "" && (/Apple/.test(navigator.vendor) || !("MediaSource" in window));
      if (native) {
        element.src = PLAYLIST;
        await once(element, "loadedmetadata");
      } else {
        const { default: Hls } = await import("hls.js/light");
        if (!this.state.active) return;
        // No worker: the site's CSP allows no blob: scripts, and demuxing MP3 is light work.
        // Loading starts only once the window is known: hls.js would otherwise begin at its live edge
        // and move the playhead there when the first segment arrives, over a seek made before.
        const hls = new Hls({ liveSyncDurationCount: 2, maxBufferLength: 20, enableWorker: false, autoStartLoad: false });
        this.hls = hls;
        hls.attachMedia(element);
        hls.loadSource(PLAYLIST);
        await new Promise<void>((resolve, reject) => {
          hls.once(Hls.Events.LEVEL_LOADED, () => resolve());
          hls.once(Hls.Events.ERROR, (_event, data) => (data.fatal ? reject(new Error(data.details)) : undefined));
        });
        if (!this.state.active) return;
        const range = this.range();
        hls.startLoad(range ? range.toMedia(clampInto(at, range)) : -1);
      }
      if (!this.state.active) return;
      if (native) this.seekTo(at);
      await element.play();
      this.set({ loading: false });
      getPlayer().setRewindRemote(this.remote);
      this.timer = setInterval(() => this.tick(), 500);
      element.addEventListener("timeupdate", this.tick);
    } catch (error) {
      this.stop();
      this.set({ error: (error as Error).message });
    }
  };

  /** Moves the playhead by `seconds` (negative: back); past the live edge it goes back to live. */
  skip = (seconds: number) => {
    const at = this.state.at;
    if (at === null) return;
    const target = at + seconds * 1000;
    if (this.state.windowEnd !== null && target > this.state.windowEnd) return this.backToLive();
    this.seekTo(target);
  };

  seekTo = (at: number) => {
    const element = this.element;
    const range = this.range();
    if (!element || !range) return;
    element.currentTime = range.toMedia(clampInto(at, range));
    this.tick();
  };

  backToLive = () => {
    this.stop();
    getPlayer().playLive();
  };

  /** What the lock screen and car controls do while rewinding (see the player's Media Session). */
  private remote: RewindRemote = (() => {
    const rewind = () => this;
    return {
      skip: (seconds: number) => rewind().skip(seconds),
      seekTo: (at: number) => rewind().seekTo(at),
      togglePause: () => rewind().togglePause(),
      get paused() {
        return rewind().paused;
      },
      position: () => {
        const { at, windowStart, windowEnd, title } = rewind().state;
        return { at, windowStart, windowEnd, title };
      },
    };
  })();

  /** Stops rewinding and frees hls.js and the element's download. */
  stop = () => {
    getPlayer().setRewindRemote(null);
    clearInterval(this.timer);
    this.unsubscribePlayer?.();
    this.unsubscribePlayer = null;
    this.hls?.destroy();
    this.hls = null;
    if (this.element) {
      this.element.removeEventListener("timeupdate", this.tick);
      this.element.pause();
      this.element.removeAttribute("src");
      this.element.load();
    }
    this.set(this.store.idle);
  };

  togglePause = () => {
    const element = this.element;
    if (!element) return;
    if (element.paused) void element.play();
    else element.pause();
    this.tick();
  };

  get paused(): boolean {
    return this.element?.paused ?? true;
  }

  /** The window on the media timeline and how wall-clock moments map onto it. */
  private range(): { start: number; end: number; toMedia(at: number): number; toWall(time: number): number } | null {
    const element = this.element;
    if (!element) return null;
    const fragments = this.hls?.levels[0]?.details?.fragments;
    if (this.hls) {
      if (!fragments || fragments.length === 0 || fragments[0].programDateTime === null) return null;
      const first = fragments[0];
      const last = fragments[fragments.length - 1];
      const toMedia = (at: number) => {
        const fragment = [...fragments].reverse().find((candidate) => (candidate.programDateTime ?? Infinity) <= at) ?? first;
        return fragment.start + (at - (fragment.programDateTime ?? 0)) / 1000;
      };
      const toWall = (time: number) => {
        const fragment = [...fragments].reverse().find((candidate) => candidate.start <= time) ?? first;
        return (fragment.programDateTime ?? 0) + (time - fragment.start) * 1000;
      };
      return { start: first.programDateTime!, end: last.programDateTime! + last.duration * 1000, toMedia, toWall };
    }
    // Safari: the media timeline starts at the playlist's first program date-time.
    const startDate = (element as HTMLAudioElement & { getStartDate?: () => Date }).getStartDate?.().getTime();
    if (!startDate || Number.isNaN(startDate) || element.seekable.length === 0) return null;
    return {
      start: startDate + element.seekable.start(0) * 1000,
      end: startDate + element.seekable.end(0) * 1000,
      toMedia: (at) => (at - startDate) / 1000,
      toWall: (time) => startDate + time * 1000,
    };
  }

  private tick = () => {
    const element = this.element;
    const range = this.range();
    if (!element || !range || !this.state.active) return;
    const at = range.toWall(element.currentTime);
    if (Date.now() - this.songsLoadedAt > 30_000) void this.loadSongs(range.start);
    const song = this.songs.find((candidate) => candidate.at <= at);
    this.set({ at, windowStart: range.start, windowEnd: range.end, title: song?.title ?? null });
    getPlayer().rewindMoved();
  };

  private async loadSongs(from: number) {
    this.songsLoadedAt = Date.now();
    try {
      const response = await fetch(`/history.json?from=${encodeURIComponent(new Date(from - 3_600_000).toISOString())}`);
      const body = (await response.json()) as { songs: Song[] };
      // Newest first, as /history.json gives them.
      this.songs = body.songs.map((song) => ({ at: Date.parse(song.playedAt), title: song.raw }));
      this.tick();
    } catch {
      this.songsLoadedAt = 0;
    }
  }

  private async loadInfo() {
    try {
      const info = (await (await fetch("/rewind.json")).json()) as { windowStart: string | null; show: { name: string; start: string } | null };
      const windowStart = info.windowStart ? Date.parse(info.windowStart) : null;
      const start = info.show ? Date.parse(info.show.start) : null;
      this.set({ show: info.show && start !== null && windowStart !== null && start >= windowStart ? { name: info.show.name, start } : null });
    } catch {
      // No show button then.
    }
  }
}

/** A moment inside the window, a second short of its end so there is audio to play. */
function clampInto(at: number, range: { start: number; end: number }): number {
  return Math.min(Math.max(at, range.start), range.end - 1000);
}

function once(element: HTMLMediaElement, event: string): Promise<void> {
  return new Promise((resolve, reject) => {
    element.addEventListener(event, () => resolve(), { once: true });
    element.addEventListener("error", () => reject(new Error("the stream could not be loaded")), { once: true });
  });
}

let instance: Rewind | null = null;
/** The one rewinder of the page, writing to `store` (./rewind-state). */
export function getRewind(store: RewindStore): Rewind {
  return (instance ??= new Rewind(store));
}
export type { Rewind };
