/**
 * The one player of the site (browser only): the live stream and podcast
 * episodes, shown in the bar of the root layout, driven by the bar, the cards'
 * ▶ and the play page. Its audio elements live in the bar, so nothing stops
 * on client-side navigation. Only one of the two sounds at a time.
 */
import { claimAudioFocus, onAudioFocusLost } from "./audio-focus";
import { reportPlay } from "./plays";

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
const SAVE_EVERY_MS = 5_000;
const SERVER_SAVE_EVERY_MS = 15_000;
// Closer than this to either end, there is nothing worth resuming.
const RESUME_MARGIN_SECONDS = 5;
/** An episode counts as played once this share of it has been heard. */
export const PLAYED_SHARE = 0.95;
export const SPEEDS = [0.75, 1, 1.25, 1.5, 2];

/** The next wait before reconnecting: 1 s, 2 s, 4 s … up to 30 s, with jitter so listeners do not reconnect in lockstep. */
export function reconnectDelay(attempt: number): number {
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

const positionKey = (id: number) => `episode-position:${id}`;
const playedKey = (id: number) => `episode-played:${id}`;

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage may be disabled (private mode, policies)
  }
}
function writeStorage(key: string, value: string | null): void {
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

class Player {
  private state: PlayerState = {
    showing: "live",
    live: { status: "idle", retryAt: null, back: false, nowPlaying: { title: null, onAir: true } },
    episode: null,
    speed: 1,
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
  private pendingStart: number | null = null;
  private pendingCue: (() => void) | null = null;
  // Seconds of the current episode really heard (playback added up, seeks not): TRENDING counts
  // a play only once enough was heard (app/utils/plays.ts decides how much).
  private heard = { episodeId: 0, seconds: 0, lastTime: null as number | null };
  private lastSaved = 0;
  private lastServerSaved = 0;
  private lastPositionState = 0;

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
  private setEpisode(change: Partial<EpisodeState>) {
    if (this.state.episode) this.set({ episode: { ...this.state.episode, ...change } });
  }

  // ---------------------------------------------------------------- setup

  /** The bar hands over its audio elements once mounted; returns the detach function. */
  attach(live: HTMLAudioElement, episode: HTMLAudioElement, options: { signedIn: boolean; nowPlaying: NowPlaying }): () => void {
    this.liveEl = live;
    this.episodeEl = episode;
    this.signedIn = options.signedIn;
    this.setLive({ nowPlaying: options.nowPlaying });
    const cleanups = [this.bindLive(live), this.bindEpisode(episode)];
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
    const pagehide = () => this.saveProgress(true);
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    window.addEventListener("pagehide", pagehide);
    // Another tab started playing: this one yields.
    const unfocus = onAudioFocusLost(FOCUS_OWNER, () => {
      if (this.wantsLive) this.stopLive();
      this.episodeEl?.pause();
    });
    this.watchdog = setInterval(() => this.checkLiveMoving(), WATCHDOG_EVERY_MS);
    this.bindMediaSessionActions();
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

  /** Loads an episode into the bar without playing it (the play page does this), unless something else is loaded and playing. */
  cueEpisode(info: EpisodeInfo, options: { startAt?: number | null; serverPosition?: number | null; autoplay?: boolean } = {}) {
    // The page's effects run before the bar's (it comes later in the layout): cue once the bar is there.
    if (!this.episodeEl) {
      this.pendingCue = () => this.cueEpisode(info, options);
      return;
    }
    const current = this.state.episode;
    if (current?.info.id === info.id) {
      if (options.startAt) this.seek(options.startAt);
      if (options.autoplay) this.playEpisode(info);
      return;
    }
    if (current?.playing) return;
    this.load(info, options.startAt ?? options.serverPosition ?? null);
    if (!this.wantsLive) this.set({ showing: "episode" });
    if (options.autoplay) this.playEpisode(info);
  }

  /** Starts (or resumes) an episode in the bar: the live stream stops. */
  playEpisode = (info: EpisodeInfo) => {
    const element = this.episodeEl;
    if (!element) return;
    if (this.state.episode?.info.id !== info.id) {
      this.load(info, null);
      if (this.signedIn) void this.fetchServerPosition(info.id);
    }
    if (this.wantsLive) this.stopLive();
    claimAudioFocus(FOCUS_OWNER);
    this.set({ showing: "episode" });
    element.playbackRate = this.state.speed;
    void element.play().catch(() => this.setEpisode({ playing: false, buffering: false }));
  };

  toggleEpisode = () => {
    const episode = this.state.episode;
    if (!episode || !this.episodeEl) return;
    if (this.episodeEl.paused) this.playEpisode(episode.info);
    else this.episodeEl.pause();
  };

  seek = (seconds: number) => {
    const element = this.episodeEl;
    if (!element || !this.state.episode) return;
    const duration = Number.isFinite(element.duration) ? element.duration : this.state.episode.duration;
    const target = Math.max(0, Math.min(seconds, Math.max(0, duration - 0.5)));
    if (element.readyState >= HTMLMediaElement.HAVE_METADATA) element.currentTime = target;
    else this.pendingStart = target;
    this.setEpisode({ position: target });
  };

  skip = (delta: number) => {
    const element = this.episodeEl;
    if (element && this.state.episode) this.seek(element.currentTime + delta);
  };

  setSpeed = (speed: number) => {
    if (!SPEEDS.includes(speed)) return;
    if (this.episodeEl) this.episodeEl.playbackRate = speed;
    this.set({ speed });
  };

  private load(info: EpisodeInfo, startAt: number | null) {
    const element = this.episodeEl;
    if (!element) return;
    this.saveProgress(true);
    const resumeAt = startAt ?? savedPosition(info.id);
    this.pendingStart = resumeAt !== null && resumeAt < info.durationSeconds - RESUME_MARGIN_SECONDS ? resumeAt : null;
    element.src = info.audioUrl;
    element.playbackRate = this.state.speed;
    this.lastSaved = this.lastServerSaved = Date.now();
    this.set({
      episode: { info, playing: false, buffering: false, position: this.pendingStart ?? 0, duration: info.durationSeconds, played: isPlayedHere(info.id) },
    });
  }

  private async fetchServerPosition(id: number) {
    try {
      const response = await fetch(`/episode-progress/${id}`, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const body = (await response.json()) as { positionSeconds: number; played: boolean };
      const element = this.episodeEl;
      if (this.state.episode?.info.id !== id || !element) return;
      if (body.played) this.setEpisode({ played: true });
      // Only when the listener has not moved yet: the stored place is where they left off on any device.
      if (body.positionSeconds > RESUME_MARGIN_SECONDS && element.currentTime < 2) this.seek(body.positionSeconds);
    } catch {
      // Offline or signed out meanwhile: this browser's position stays.
    }
  }

  private saveProgress(force: boolean) {
    const element = this.episodeEl;
    const episode = this.state.episode;
    if (!element || !episode || !element.getAttribute("src")) return;
    const now = Date.now();
    const { currentTime } = element;
    const duration = Number.isFinite(element.duration) ? element.duration : episode.duration;
    if (!force && now - this.lastSaved < SAVE_EVERY_MS) return;
    this.lastSaved = now;
    const finished = currentTime >= duration - RESUME_MARGIN_SECONDS;
    const playedNow = duration > 0 && currentTime >= duration * PLAYED_SHARE;
    if (playedNow && !episode.played) {
      writeStorage(playedKey(episode.info.id), "1");
      this.setEpisode({ played: true });
    }
    writeStorage(positionKey(episode.info.id), currentTime < RESUME_MARGIN_SECONDS || finished ? null : String(Math.floor(currentTime)));
    if (this.signedIn && (force || playedNow !== episode.played || now - this.lastServerSaved >= SERVER_SAVE_EVERY_MS)) {
      this.lastServerSaved = now;
      const body = new URLSearchParams({ positionSeconds: String(Math.floor(finished ? 0 : currentTime)), played: String(playedNow || episode.played) });
      fetch(`/episode-progress/${episode.info.id}`, { method: "POST", body, credentials: "same-origin", keepalive: true }).catch(() => {});
    }
  }

  private countHeard(element: HTMLAudioElement): void {
    const episode = this.state.episode;
    if (!episode || this.heard.episodeId !== episode.info.id) return;
    const step = this.heard.lastTime === null ? 0 : element.currentTime - this.heard.lastTime;
    // timeupdate fires a few times a second; a bigger jump is a seek, not listening.
    if (step > 0 && step < 3) this.heard.seconds += step;
    this.heard.lastTime = element.currentTime;
    if (!element.paused) reportPlay(episode.info.id, { heardSeconds: this.heard.seconds, durationSeconds: episode.duration });
  }

  private bindEpisode(element: HTMLAudioElement): () => void {
    const handlers: Record<string, () => void> = {
      loadedmetadata: () => {
        if (Number.isFinite(element.duration)) this.setEpisode({ duration: element.duration });
        if (this.pendingStart !== null) {
          element.currentTime = this.pendingStart;
          this.pendingStart = null;
        }
      },
      play: () => {
        const episode = this.state.episode;
        if (!episode) return;
        if (this.wantsLive) this.stopLive();
        claimAudioFocus(FOCUS_OWNER);
        if (this.heard.episodeId !== episode.info.id) this.heard = { episodeId: episode.info.id, seconds: 0, lastTime: null };
        reportPlay(episode.info.id, { heardSeconds: this.heard.seconds, durationSeconds: episode.duration });
        this.setEpisode({ playing: true });
      },
      playing: () => this.setEpisode({ playing: true, buffering: false }),
      waiting: () => this.setEpisode({ buffering: true }),
      pause: () => {
        this.setEpisode({ playing: false, buffering: false });
        this.saveProgress(true);
      },
      seeked: () => this.saveProgress(true),
      ended: () => {
        this.setEpisode({ playing: false, buffering: false, position: element.currentTime });
        this.saveProgress(true);
      },
      seeking: () => {
        this.heard.lastTime = null;
      },
      timeupdate: () => {
        this.countHeard(element);
        this.setEpisode({ position: element.currentTime });
        this.saveProgress(false);
        this.updatePositionState();
      },
    };
    for (const [name, handler] of Object.entries(handlers)) element.addEventListener(name, handler);
    return () => {
      for (const [name, handler] of Object.entries(handlers)) element.removeEventListener(name, handler);
    };
  }

  // ---------------------------------------------------------------- Media Session

  private bindMediaSessionActions() {
    if (!("mediaSession" in navigator)) return;
    const session = navigator.mediaSession;
    const episodeShown = () => this.state.showing === "episode" && this.state.episode !== null;
    const actions: [MediaSessionAction, MediaSessionActionHandler][] = [
      ["play", () => (episodeShown() ? this.playEpisode(this.state.episode!.info) : this.playLive())],
      ["pause", () => (episodeShown() ? this.episodeEl?.pause() : this.stopLive())],
      ["stop", () => (episodeShown() ? this.episodeEl?.pause() : this.stopLive())],
      ["seekbackward", (details) => episodeShown() && this.skip(-(details.seekOffset ?? 15))],
      ["seekforward", (details) => episodeShown() && this.skip(details.seekOffset ?? 30)],
      ["seekto", (details) => episodeShown() && details.seekTime !== undefined && this.seek(details.seekTime)],
    ];
    for (const [action, handler] of actions) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know.
      }
    }
  }

  private mediaSessionKey = "";
  private updateMediaSession() {
    if (typeof navigator === "undefined" || !("mediaSession" in navigator) || !this.liveEl) return;
    const { showing, live, episode } = this.state;
    const station = this.station;
    let key: string;
    let metadata: MediaMetadataInit | null = null;
    let playing = false;
    if (showing === "episode" && episode) {
      key = `episode:${episode.info.id}:${episode.playing}`;
      playing = episode.playing;
      metadata = { title: episode.info.title, artist: station.name, artwork: [{ src: new URL(episode.info.coverUrl, location.href).href, sizes: "640x640" }] };
    } else {
      key = `live:${live.status}:${live.nowPlaying.title}`;
      playing = live.status === "playing" || live.status === "buffering";
      if (live.status !== "idle") {
        metadata = {
          title: live.nowPlaying.title ?? `${station.name} live`,
          artist: station.name,
          album: station.tagline,
          artwork: [{ src: new URL(station.artworkUrl, location.href).href, sizes: "512x512" }],
        };
      }
    }
    if (key === this.mediaSessionKey) return;
    this.mediaSessionKey = key;
    navigator.mediaSession.metadata = metadata ? new MediaMetadata(metadata) : null;
    navigator.mediaSession.playbackState = playing ? "playing" : metadata ? "paused" : "none";
  }

  private updatePositionState() {
    const element = this.episodeEl;
    if (!element || !("mediaSession" in navigator) || this.state.showing !== "episode") return;
    const now = Date.now();
    if (now - this.lastPositionState < 1000 || !Number.isFinite(element.duration)) return;
    this.lastPositionState = now;
    try {
      navigator.mediaSession.setPositionState({
        duration: element.duration,
        position: Math.min(element.currentTime, element.duration),
        playbackRate: element.playbackRate,
      });
    } catch {
      // Rejected values (e.g. a duration the browser has not settled yet).
    }
  }

  station = { name: "", tagline: "", artworkUrl: "" };
}

let instance: Player | null = null;

/** The page's one player (created on first use, in the browser). */
export function getPlayer(): Player {
  instance ??= new Player();
  return instance;
}

export type { Player };
