/**
 * The player's episode half (browser only): loading, playing, seeking and speed, resuming where
 * the listener left off, the "played" mark, play reports and the Media Session position. Loaded
 * by app/utils/player.ts on the first episode a page cues or plays, so the pages where nobody
 * plays one (most visits to /listen) do not download it.
 */
import { isPlayedHere, playedKey, positionKey, PLAYED_SHARE, savedPosition, writeStorage, type EpisodeHost, type EpisodeInfo } from "./player";
import { reportPlay } from "./plays";

const SAVE_EVERY_MS = 5_000;
const SERVER_SAVE_EVERY_MS = 15_000;
// Closer than this to either end, there is nothing worth resuming.
const RESUME_MARGIN_SECONDS = 5;

export type CueOptions = { startAt?: number | null; serverPosition?: number | null; autoplay?: boolean };

export class EpisodeEngine {
  private pendingStart: number | null = null;
  // Seconds of the current episode really heard (playback added up, seeks not): TRENDING counts
  // a play only once enough was heard (app/utils/plays.ts decides how much).
  private heard = { episodeId: 0, seconds: 0, lastTime: null as number | null };
  private lastSaved = 0;
  private lastServerSaved = 0;
  private lastPositionState = 0;
  readonly detach: () => void;

  constructor(
    private readonly element: HTMLAudioElement,
    private readonly host: EpisodeHost,
  ) {
    this.detach = this.bind();
  }

  private setEpisode(change: Partial<NonNullable<ReturnType<EpisodeHost["getState"]>["episode"]>>) {
    const episode = this.host.getState().episode;
    if (episode) this.host.set({ episode: { ...episode, ...change } });
  }

  /** Loads an episode into the bar without playing it (the play page does this), unless something else is loaded and playing. */
  cue(info: EpisodeInfo, options: CueOptions) {
    const current = this.host.getState().episode;
    if (current?.info.id === info.id) {
      if (options.startAt) this.seek(options.startAt);
      if (options.autoplay) this.play(info);
      return;
    }
    if (current?.playing) return;
    this.load(info, options.startAt ?? options.serverPosition ?? null);
    if (!this.host.wantsLive()) this.host.set({ showing: "episode" });
    if (options.autoplay) this.play(info);
  }

  /** Starts (or resumes) an episode in the bar: the live stream stops. */
  play(info: EpisodeInfo) {
    const element = this.element;
    if (this.host.getState().episode?.info.id !== info.id) {
      this.load(info, null);
      if (this.host.signedIn()) void this.fetchServerPosition(info.id);
    }
    if (this.host.wantsLive()) this.host.stopLive();
    this.host.claimFocus();
    this.host.set({ showing: "episode" });
    element.playbackRate = this.host.getState().speed;
    void element.play().catch(() => this.setEpisode({ playing: false, buffering: false }));
  }

  toggle() {
    const episode = this.host.getState().episode;
    if (!episode) return;
    if (this.element.paused) this.play(episode.info);
    else this.element.pause();
  }

  seek(seconds: number) {
    const element = this.element;
    const episode = this.host.getState().episode;
    if (!episode) return;
    const duration = Number.isFinite(element.duration) ? element.duration : episode.duration;
    const target = Math.max(0, Math.min(seconds, Math.max(0, duration - 0.5)));
    if (element.readyState >= HTMLMediaElement.HAVE_METADATA) element.currentTime = target;
    else this.pendingStart = target;
    this.setEpisode({ position: target });
  }

  skip(delta: number) {
    if (this.host.getState().episode) this.seek(this.element.currentTime + delta);
  }

  private load(info: EpisodeInfo, startAt: number | null) {
    const element = this.element;
    this.saveProgress(true);
    const resumeAt = startAt ?? savedPosition(info.id);
    this.pendingStart = resumeAt !== null && resumeAt < info.durationSeconds - RESUME_MARGIN_SECONDS ? resumeAt : null;
    element.src = info.audioUrl;
    element.playbackRate = this.host.getState().speed;
    this.lastSaved = this.lastServerSaved = Date.now();
    this.host.set({
      episode: { info, playing: false, buffering: false, position: this.pendingStart ?? 0, duration: info.durationSeconds, played: isPlayedHere(info.id) },
    });
  }

  private async fetchServerPosition(id: number) {
    try {
      const response = await fetch(`/episode-progress/${id}`, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const body = (await response.json()) as { positionSeconds: number; played: boolean };
      if (this.host.getState().episode?.info.id !== id) return;
      if (body.played) this.setEpisode({ played: true });
      // Only when the listener has not moved yet: the stored place is where they left off on any device.
      if (body.positionSeconds > RESUME_MARGIN_SECONDS && this.element.currentTime < 2) this.seek(body.positionSeconds);
    } catch {
      // Offline or signed out meanwhile: this browser's position stays.
    }
  }

  saveProgress(force: boolean) {
    const element = this.element;
    const episode = this.host.getState().episode;
    if (!episode || !element.getAttribute("src")) return;
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
    if (this.host.signedIn() && (force || playedNow !== episode.played || now - this.lastServerSaved >= SERVER_SAVE_EVERY_MS)) {
      this.lastServerSaved = now;
      const body = new URLSearchParams({ positionSeconds: String(Math.floor(finished ? 0 : currentTime)), played: String(playedNow || episode.played) });
      fetch(`/episode-progress/${episode.info.id}`, { method: "POST", body, credentials: "same-origin", keepalive: true }).catch(() => {});
    }
  }

  private countHeard(): void {
    const element = this.element;
    const episode = this.host.getState().episode;
    if (!episode || this.heard.episodeId !== episode.info.id) return;
    const step = this.heard.lastTime === null ? 0 : element.currentTime - this.heard.lastTime;
    // timeupdate fires a few times a second; a bigger jump is a seek, not listening.
    if (step > 0 && step < 3) this.heard.seconds += step;
    this.heard.lastTime = element.currentTime;
    if (!element.paused) reportPlay(episode.info.id, { heardSeconds: this.heard.seconds, durationSeconds: episode.duration });
  }

  private updatePositionState() {
    const element = this.element;
    if (!("mediaSession" in navigator) || this.host.getState().showing !== "episode") return;
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

  private bind(): () => void {
    const element = this.element;
    const handlers: Record<string, () => void> = {
      loadedmetadata: () => {
        if (Number.isFinite(element.duration)) this.setEpisode({ duration: element.duration });
        if (this.pendingStart !== null) {
          element.currentTime = this.pendingStart;
          this.pendingStart = null;
        }
      },
      play: () => {
        const episode = this.host.getState().episode;
        if (!episode) return;
        if (this.host.wantsLive()) this.host.stopLive();
        this.host.claimFocus();
        // Counted from where playback starts: the first timeupdate comes a quarter second in, a share of a short episode.
        if (this.heard.episodeId !== episode.info.id) this.heard = { episodeId: episode.info.id, seconds: 0, lastTime: element.currentTime };
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
        const episode = this.host.getState().episode;
        // The end is reached: a short episode's last report (its retry after the half) would come past it.
        if (episode && this.heard.episodeId === episode.info.id)
          reportPlay(episode.info.id, { heardSeconds: this.heard.seconds, durationSeconds: episode.duration, ended: true });
        this.setEpisode({ playing: false, buffering: false, position: element.currentTime });
        this.saveProgress(true);
      },
      seeking: () => {
        this.heard.lastTime = null;
      },
      timeupdate: () => {
        this.countHeard();
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
}
