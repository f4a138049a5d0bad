/**
 * The one player of the site (browser only): the live stream and podcast
 * episodes, shown in the bar of the root layout, driven by the bar, the cards'
 * ▶ and the play page. Its audio elements live in the bar, so nothing stops
 * on client-side navigation. Only one of the two sounds at a time. The episode
 * half (./player-episodes.ts) is loaded on the first episode cued or played, the
 * Media Session half (./player-media-session.ts) once something plays or is cued.
 */
import { claimAudioFocus, onAudioFocusLost } from "./audio-focus";
import type { CueOptions, EpisodeEngine } from "./player-episodes";
import type { MediaSessionBridge, MediaSessionHost } from "./player-media-session";

export type LiveStatus = "idle" | "connecting" | "playing" | "buffering" | "reconnecting" | "offline";

export interface NowPlaying {
  title: string | null;
  onAir: boolean;
}

export interface EpisodeInfo {
  id: number;
  title: string;
  audioUrl: string;
  coverUrl: string;
  durationSeconds: number;
}

export interface EpisodeState {
  info: EpisodeInfo;
  playing: boolean;
  buffering: boolean;
  position: number;
  duration: number;
  played: boolean;
}

export interface PlayerState {
  /** What the bar shows: the live stream, or the episode last chosen. */
  showing: "live" | "episode";
  live: {
    status: LiveStatus;
    /** When the next reconnect attempt starts (for the countdown), while reconnecting. */
    retryAt: number | null;
    /** Just came back after a drop ("Back on air" for a moment). */
    back: boolean;
    nowPlaying: NowPlaying;
  };
  episode: EpisodeState | null;
  speed: number;
  /** The episode whose play page is open: its page holds the controls, so the bar stands aside while it shows that episode. */
  pageEpisodeId: number | null;
}

const STREAM_PATH = "/stream/live";
const FOCUS_OWNER = "player";
const MAX_BACKOFF_MS = 30_000;
// Buffering this long without recovering counts as a drop.
const STALL_TIMEOUT_MS = 8_000;
// A connect that has not started playing by then counts as failed.
const CONNECT_TIMEOUT_MS = 10_000;
// While "playing", audio time must move; a silent hang (no event at all) is a drop too.
const WATCHDOG_EVERY_MS = 1_000;
const FROZEN_AFTER_MS = 6_000;
const BACK_ON_AIR_MS = 4_000;
/** An episode counts as played once this share of it has been heard. */
export const PLAYED_SHARE = 0.95;
export const SPEEDS = [0.75, 1, 1.25, 1.5, 2];

/**
 * The next wait before reconnecting: 1 s, 1 s, 2 s, 4 s … up to 30 s, with jitter so listeners do
 * not reconnect in lockstep. Two quick tries first: a restarting server or source is usually back
 * within two or three seconds, and doubling from the first try made those listeners wait four more.
 */
export function reconnectDelay(attempt: number): number {
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

export const positionKey = (id: number) => `episode-position:${id}`;
export const playedKey = (id: number) => `episode-played:${id}`;

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage may be disabled (private mode, policies)
  }
}
export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the position simply is not remembered.
  }
}

/** This browser's remembered position in an episode (seconds), if any. */
export function savedPosition(id: number): number | null {
  const value = Number(readStorage(positionKey(id)));
  return Number.isFinite(value) && value > 0 ? value : null;
}
export function isPlayedHere(id: number): boolean {
  return readStorage(playedKey(id)) === "1";
}

type Listener = () => void;

/** Lock-screen and car controls reach the rewind window through this while a listener rewinds (./rewind registers it). */
export interface RewindRemote {
  skip(seconds: number): void;
  /** Moves the playhead to a wall-clock moment (ms). */
  seekTo(at: number): void;
  togglePause(): void;
  readonly paused: boolean;
  /** The playhead and the window's ends (wall-clock ms), and the song at the playhead. */
  position(): { at: number | null; windowStart: number | null; windowEnd: number | null; title: string | null };
}

/** What the episode half needs of the player. */
export interface EpisodeHost {
  getState(): PlayerState;
  set(change: Partial<PlayerState>): void;
  wantsLive(): boolean;
  stopLive(): void;
  claimFocus(): void;
  signedIn(): boolean;
}

class Player {
  private state: PlayerState = {
    showing: "live",
    live: { status: "idle", retryAt: null, back: false, nowPlaying: { title: null, onAir: true } },
    episode: null,
    speed: 1,
    pageEpisodeId: null,
  };
  private listeners = new Set<Listener>();
  private liveEl: HTMLAudioElement | null = null;
  private episodeEl: HTMLAudioElement | null = null;
  /** The listener wants the live stream to sound (a drop does not change this; their pause does). */
  private wantsLive = false;
  private attempt = 0;
  private droppedSincePlaying = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private backTimer: ReturnType<typeof setTimeout> | undefined;
  private watchdog: ReturnType<typeof setInterval> | undefined;
  private lastLiveTime = 0;
  private lastLiveTimeAt = 0;
  private backOnAirAt = 0;
  private signedIn = false;
  private pendingCue: (() => void) | null = null;
  private episodes: EpisodeEngine | null = null;
  private episodesLoading: Promise<EpisodeEngine> | null = null;
  private loadEpisodeControls: () => Promise<unknown> = () => Promise.resolve();

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getState = () => this.state;

  private set(change: Partial<PlayerState>) {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
    this.updateMediaSession();
  }
  private setLive(change: Partial<PlayerState["live"]>) {
    this.set({ live: { ...this.state.live, ...change } });
  }

  // ---------------------------------------------------------------- setup

  /** The bar hands over its audio elements once mounted; returns the detach function. */
  attach(
    live: HTMLAudioElement,
    episode: HTMLAudioElement,
    options: {
      signedIn: boolean;
      nowPlaying: NowPlaying;
      /** The bar's episode controls, loaded with the episode half. */ loadEpisodeControls?: () => Promise<unknown>;
    },
  ): () => void {
    this.liveEl = live;
    this.episodeEl = episode;
    this.signedIn = options.signedIn;
    this.loadEpisodeControls = options.loadEpisodeControls ?? (() => Promise.resolve());
    this.setLive({ nowPlaying: options.nowPlaying });
    const cleanups = [this.bindLive(live)];
    const online = () => {
      if (!this.wantsLive) return;
      this.attempt = 0;
      this.setLive({ status: "connecting", retryAt: null });
      this.connect();
    };
    const offline = () => {
      if (!this.wantsLive) return;
      this.clearLiveTimers();
      this.teardownLive();
      this.setLive({ status: "offline", retryAt: null });
    };
    const pagehide = () => this.episodes?.saveProgress(true);
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    window.addEventListener("pagehide", pagehide);
    // Another tab started playing: this one yields.
    const unfocus = onAudioFocusLost(FOCUS_OWNER, () => {
      if (this.wantsLive) this.stopLive();
      this.episodeEl?.pause();
    });
    this.watchdog = setInterval(() => this.checkLiveMoving(), WATCHDOG_EVERY_MS);
    const cue = this.pendingCue;
    this.pendingCue = null;
    cue?.();
    return () => {
      for (const cleanup of cleanups) cleanup();
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
      window.removeEventListener("pagehide", pagehide);
      unfocus();
      clearInterval(this.watchdog);
      this.clearLiveTimers();
      this.episodes?.detach();
      this.episodes = this.episodesLoading = null;
      this.liveEl = this.episodeEl = null;
    };
  }

  setSignedIn(signedIn: boolean) {
    this.signedIn = signedIn;
  }

  // ---------------------------------------------------------------- live

  playLive = () => {
    this.wantsLive = true;
    this.attempt = 0;
    this.droppedSincePlaying = false;
    this.episodeEl?.pause();
    claimAudioFocus(FOCUS_OWNER);
    this.set({ showing: "live", live: { ...this.state.live, status: "connecting", retryAt: null, back: false } });
    this.connect();
  };

  /** The listener's pause: stays paused until they press play again. */
  stopLive = () => {
    this.wantsLive = false;
    this.clearLiveTimers();
    this.teardownLive();
    this.setLive({ status: "idle", retryAt: null, back: false });
  };

  /** The server says whether the stream is on air; a listener waiting to reconnect goes at once when it is back. */
  nowPlayingChanged(nowPlaying: NowPlaying) {
    const cameBack = nowPlaying.onAir && !this.state.live.nowPlaying.onAir;
    if (cameBack) this.backOnAirAt = Date.now();
    this.setLive({ nowPlaying });
    if (nowPlaying.onAir && this.wantsLive && this.state.live.status === "reconnecting") this.connect();
  }

  private connect() {
    const element = this.liveEl;
    if (!element || !this.wantsLive) return;
    this.clearLiveTimers();
    if (navigator.onLine === false) {
      this.setLive({ status: "offline", retryAt: null });
      return;
    }
    if (this.state.live.status === "reconnecting") this.setLive({ status: "connecting", retryAt: null });
    // A fresh URL each time: always the live edge, never a stale buffered copy.
    element.src = `${STREAM_PATH}?listen=${Date.now().toString(36)}`;
    this.connectTimer = setTimeout(() => this.dropped(), CONNECT_TIMEOUT_MS);
    element.play().catch((error: unknown) => {
      // The browser refused to start (autoplay policy): wait for the listener's next tap.
      if (error instanceof DOMException && error.name === "NotAllowedError") {
        this.wantsLive = false;
        this.clearLiveTimers();
        this.setLive({ status: "idle", retryAt: null });
      }
      // Other failures arrive as `error` events.
    });
  }

  private teardownLive() {
    const element = this.liveEl;
    if (!element || !element.getAttribute("src")) return;
    element.pause();
    // Dropping the source stops the download; a live stream is never resumed from a stale position.
    element.removeAttribute("src");
    element.load();
  }

  private clearLiveTimers() {
    clearTimeout(this.retryTimer);
    clearTimeout(this.stallTimer);
    clearTimeout(this.connectTimer);
  }

  /** The stream stopped without the listener asking: reconnect with backoff while they want to listen. */
  private dropped() {
    if (!this.wantsLive) return;
    this.clearLiveTimers();
    this.teardownLive();
    this.droppedSincePlaying = true;
    if (navigator.onLine === false) {
      this.setLive({ status: "offline", retryAt: null, back: false });
      return;
    }
    // The server saw the stream come back a moment ago: an attempt in flight just missed it.
    const justBack = this.state.live.nowPlaying.onAir && Date.now() - this.backOnAirAt < 10_000;
    const delay = justBack ? Math.min(1_000, reconnectDelay(this.attempt)) : reconnectDelay(this.attempt);
    this.attempt += 1;
    this.setLive({ status: "reconnecting", retryAt: Date.now() + delay, back: false });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private checkLiveMoving() {
    const element = this.liveEl;
    if (!element || !this.wantsLive || this.state.live.status !== "playing") return;
    const now = Date.now();
    if (element.currentTime !== this.lastLiveTime) {
      this.lastLiveTime = element.currentTime;
      this.lastLiveTimeAt = now;
    } else if (now - this.lastLiveTimeAt > FROZEN_AFTER_MS) {
      this.dropped();
    }
  }

  private bindLive(element: HTMLAudioElement): () => void {
    const isCurrent = () => this.wantsLive && element.getAttribute("src") !== null;
    const handlers: Record<string, () => void> = {
      playing: () => {
        if (!this.wantsLive) return;
        this.clearLiveTimers();
        this.attempt = 0;
        this.lastLiveTime = element.currentTime;
        this.lastLiveTimeAt = Date.now();
        const back = this.droppedSincePlaying;
        this.droppedSincePlaying = false;
        clearTimeout(this.backTimer);
        if (back) this.backTimer = setTimeout(() => this.setLive({ back: false }), BACK_ON_AIR_MS);
        this.setLive({ status: "playing", retryAt: null, back });
      },
      waiting: () => {
        if (!isCurrent() || this.state.live.status === "connecting") return;
        this.setLive({ status: "buffering" });
        clearTimeout(this.stallTimer);
        this.stallTimer = setTimeout(() => this.dropped(), STALL_TIMEOUT_MS);
      },
      error: () => isCurrent() && this.dropped(),
      ended: () => isCurrent() && this.dropped(),
      // A pause nobody asked for (the stream ended: browsers fire `pause` before `ended`; the
      // OS took the audio away) while the listener wants to listen is a drop, not their choice.
      pause: () => {
        const status = this.state.live.status;
        if (isCurrent() && (status === "playing" || status === "buffering")) this.dropped();
      },
    };
    for (const [name, handler] of Object.entries(handlers)) element.addEventListener(name, handler);
    return () => {
      for (const [name, handler] of Object.entries(handlers)) element.removeEventListener(name, handler);
    };
  }

  // ---------------------------------------------------------------- episodes

  private host: EpisodeHost = {
    getState: () => this.state,
    set: (change) => this.set(change),
    wantsLive: () => this.wantsLive,
    stopLive: () => this.stopLive(),
    claimFocus: () => claimAudioFocus(FOCUS_OWNER),
    signedIn: () => this.signedIn,
  };

  /**
   * Runs `use` with the episode half: at once when it is there, else once it has loaded. `load`
   * starts loading it (cueing or playing an episode); the other controls only act on an episode
   * that is already loaded, so without one they wait for a load in progress or do nothing.
   */
  private withEpisodes(use: (episodes: EpisodeEngine) => void, load = false) {
    if (this.episodes) return use(this.episodes);
    const element = this.episodeEl;
    if (!this.episodesLoading && load && element) {
      // The bar's controls arrive together with the logic: the bar never shows an episode without them.
      this.episodesLoading = Promise.all([import("./player-episodes"), this.loadEpisodeControls()]).then(
        ([{ EpisodeEngine }]) => {
          if (this.episodeEl !== element) throw new Error("The player bar went away");
          this.episodes = new EpisodeEngine(element, this.host);
          return this.episodes;
        },
        (error: unknown) => {
          // Offline, or a new deployment removed the chunk: the next ▶ tries again.
          this.episodesLoading = null;
          throw error;
        },
      );
    }
    this.episodesLoading?.then(use, () => {});
  }

  /** Loads an episode into the bar without playing it (the play page does this), unless something else is loaded and playing. */
  cueEpisode(info: EpisodeInfo, options: CueOptions = {}) {
    // The page's effects run before the bar's (it comes later in the layout): cue once the bar is there.
    if (!this.episodeEl) {
      this.pendingCue = () => this.cueEpisode(info, options);
      return;
    }
    this.withEpisodes((episodes) => episodes.cue(info, options), true);
  }

  /** The play page of episode `id` is open (null: it closed); see PlayerState.pageEpisodeId. */
  setPageEpisode(id: number | null) {
    if (this.state.pageEpisodeId !== id) this.set({ pageEpisodeId: id });
  }

  /** Loads the episode half ahead of a likely ▶ (pointer over it, touch, focus), so the press plays at once. */
  prepareEpisodes() {
    this.withEpisodes(() => {}, true);
  }

  /** Starts (or resumes) an episode in the bar: the live stream stops. */
  playEpisode = (info: EpisodeInfo) => this.withEpisodes((episodes) => episodes.play(info), true);
  toggleEpisode = () => this.withEpisodes((episodes) => episodes.toggle());
  seek = (seconds: number) => this.withEpisodes((episodes) => episodes.seek(seconds));
  skip = (delta: number) => this.withEpisodes((episodes) => episodes.skip(delta));

  setSpeed = (speed: number) => {
    if (!SPEEDS.includes(speed)) return;
    if (this.episodeEl) this.episodeEl.playbackRate = speed;
    this.set({ speed });
  };

  // ---------------------------------------------------------------- Media Session

  private rewind: RewindRemote | null = null;
  private liveRewind: ((secondsBack: number) => void) | null = null;
  private liveShow: { name: string; artwork: string | null } | null = null;

  /** Rewinding started (its controls) or ended (null): the lock screen follows the rewind window meanwhile. */
  setRewindRemote(remote: RewindRemote | null) {
    this.rewind = remote;
    this.updateMediaSession(true);
  }
  /** The rewind playhead moved or paused: the lock screen's position and title follow. */
  rewindMoved() {
    this.updateMediaSession();
  }
  /** How the lock screen's "back" starts rewinding the live stream (null: the station records nothing to rewind). */
  setLiveRewind(start: ((secondsBack: number) => void) | null) {
    this.liveRewind = start;
  }
  /** The show on air: its name and artwork stand on the lock screen while the live stream plays. */
  setLiveShow(show: { name: string; artwork: string | null } | null) {
    if (this.liveShow?.name === show?.name && this.liveShow?.artwork === show?.artwork) return;
    this.liveShow = show;
    this.updateMediaSession(true);
  }

  // The Media Session code (./player-media-session) is loaded once there is something to show on the
  // lock screen (the live stream tuned in, an episode cued, a rewind): until then it would show
  // nothing, the browser's default. Most visits to /listen never play, and its first-load JavaScript
  // has a budget (issue 14).
  private mediaSession: MediaSessionBridge | null = null;
  private mediaSessionLoading = false;
  private mediaSessionHost: MediaSessionHost = {
    getState: () => this.state,
    station: () => this.station,
    rewind: () => this.rewind,
    liveRewind: () => this.liveRewind,
    liveShow: () => this.liveShow,
    playLive: () => this.playLive(),
    stopLive: () => this.stopLive(),
    playEpisode: (info) => this.playEpisode(info),
    pauseEpisode: () => this.episodeEl?.pause(),
    skip: (seconds) => this.skip(seconds),
    seek: (seconds) => this.seek(seconds),
  };

  /** Brings the lock screen up to date; `changed`: also when its summary looks the same (the show or the rewind changed). */
  private updateMediaSession(changed = false) {
    if (typeof navigator === "undefined" || !("mediaSession" in navigator) || !this.liveEl) return;
    if (this.mediaSession) return this.mediaSession.update(changed);
    const { showing, live, episode } = this.state;
    if (this.mediaSessionLoading || (!this.rewind && !(showing === "episode" && episode) && live.status === "idle")) return;
    this.mediaSessionLoading = true;
    import("./player-media-session").then(
      ({ MediaSessionBridge }) => {
        this.mediaSession = new MediaSessionBridge(this.mediaSessionHost);
        this.updateMediaSession(true);
      },
      // Offline, or a new deployment removed the chunk: the next change tries again.
      () => {
        this.mediaSessionLoading = false;
      },
    );
  }

  /** Set by the bar; `liveTitle` is the OS media controls' title when no song is known, in the page's language. */
  station = { name: "", tagline: "", artworkUrl: "", liveTitle: "" };
}

let instance: Player | null = null;

/** The page's one player (created on first use, in the browser). */
export function getPlayer(): Player {
  instance ??= new Player();
  return instance;
}

export type { Player };
