/**
 * The player's Media Session half (browser only): what the lock screen, headphones and car show
 * and do. Loaded by app/utils/player.ts once there is something to show there (the live stream
 * tuned in, an episode cued, a rewind), so pages where nobody plays (most visits to /listen) do
 * not download it. Only types come from ./player: a value imported from it would move it out of
 * the chunk it shares with the root.
 */
import type { EpisodeInfo, PlayerState, RewindRemote } from "./player";

// What the lock screen's previous/next buttons skip when there is no track list to step through.
const TRACK_SKIP_SECONDS = 30;

/** What the Media Session half needs of the player. */
export interface MediaSessionHost {
  getState(): PlayerState;
  /** `liveTitle` is the title when no song is known, in the page's language. */
  station(): { name: string; tagline: string; artworkUrl: string; liveTitle: string };
  /** The rewind window while the listener rewinds. */
  rewind(): RewindRemote | null;
  /** How "back" starts rewinding the live stream (null: the station records nothing to rewind). */
  liveRewind(): ((secondsBack: number) => void) | null;
  /** The show on air. */
  liveShow(): { name: string; artwork: string | null } | null;
  playLive(): void;
  stopLive(): void;
  playEpisode(info: EpisodeInfo): void;
  pauseEpisode(): void;
  skip(seconds: number): void;
  seek(seconds: number): void;
}

export class MediaSessionBridge {
  // A summary of what the lock screen shows: it is set again only when this changes.
  private key = "";

  constructor(private readonly host: MediaSessionHost) {
    this.bindActions();
  }

  /**
   * Lock screen, headphones and car: play and pause; seek (and previous/next track, which skip
   * 30 s: an episode or the rewind window has no track list) in an episode or while rewinding;
   * on the live stream, "back" rewinds it when the station records it.
   */
  private bindActions() {
    const session = navigator.mediaSession;
    const host = this.host;
    const episodeShown = () => host.getState().showing === "episode" && host.getState().episode !== null;
    const back = (seconds: number) => {
      const rewind = host.rewind();
      if (rewind) rewind.skip(-seconds);
      else if (episodeShown()) host.skip(-seconds);
      else host.liveRewind()?.(seconds);
    };
    const ahead = (seconds: number) => {
      const rewind = host.rewind();
      if (rewind) rewind.skip(seconds);
      else if (episodeShown()) host.skip(seconds);
    };
    const pause = () => {
      const rewind = host.rewind();
      if (rewind) {
        if (!rewind.paused) rewind.togglePause();
      } else if (episodeShown()) host.pauseEpisode();
      else host.stopLive();
    };
    const actions: [MediaSessionAction, MediaSessionActionHandler][] = [
      [
        "play",
        () => {
          const rewind = host.rewind();
          if (rewind) {
            if (rewind.paused) rewind.togglePause();
          } else if (episodeShown()) host.playEpisode(host.getState().episode!.info);
          else host.playLive();
        },
      ],
      ["pause", pause],
      ["stop", pause],
      ["seekbackward", (details) => back(details.seekOffset ?? 15)],
      ["seekforward", (details) => ahead(details.seekOffset ?? 30)],
      ["previoustrack", () => back(TRACK_SKIP_SECONDS)],
      ["nexttrack", () => ahead(TRACK_SKIP_SECONDS)],
      [
        "seekto",
        (details) => {
          if (details.seekTime === undefined) return;
          const rewind = host.rewind();
          const start = rewind?.position().windowStart;
          if (rewind && start != null) rewind.seekTo(start + details.seekTime * 1000);
          else if (episodeShown()) host.seek(details.seekTime);
        },
      ],
    ];
    for (const [action, handler] of actions) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know.
      }
    }
  }

  /** Shows the player's state; `changed`: even when the summary is the same (the show or the rewind changed). */
  update(changed: boolean) {
    if (changed) this.key = "";
    const { showing, live, episode } = this.host.getState();
    const station = this.host.station();
    const rewind = this.host.rewind();
    const liveShow = this.host.liveShow();
    let key: string;
    let metadata: MediaMetadataInit | null = null;
    let playing = false;
    const liveArtwork = liveShow?.artwork
      ? { src: new URL(liveShow.artwork, location.href).href }
      : { src: new URL(station.artworkUrl, location.href).href, sizes: "512x512" };
    if (rewind) {
      const { at, windowStart, windowEnd, title } = rewind.position();
      playing = !rewind.paused;
      key = `rewind:${title}:${playing}:${liveShow?.name}`;
      metadata = { title: title ?? station.liveTitle, artist: station.name, album: liveShow?.name ?? station.tagline, artwork: [liveArtwork] };
      if (at !== null && windowStart !== null && windowEnd !== null && windowEnd > windowStart) {
        try {
          navigator.mediaSession.setPositionState({
            duration: (windowEnd - windowStart) / 1000,
            position: Math.min(Math.max(0, (at - windowStart) / 1000), (windowEnd - windowStart) / 1000),
            playbackRate: 1,
          });
        } catch {
          // A window the browser refuses (too short yet).
        }
      }
    } else if (showing === "episode" && episode) {
      key = `episode:${episode.info.id}:${episode.playing}`;
      playing = episode.playing;
      metadata = { title: episode.info.title, artist: station.name, artwork: [{ src: new URL(episode.info.coverUrl, location.href).href, sizes: "640x640" }] };
    } else {
      key = `live:${live.status}:${live.nowPlaying.title}:${liveShow?.name}:${liveShow?.artwork}`;
      playing = live.status === "playing" || live.status === "buffering";
      if (live.status !== "idle") {
        // The show on air's artwork, else the station's.
        metadata = {
          title: live.nowPlaying.title ?? station.liveTitle,
          artist: station.name,
          album: liveShow?.name ?? station.tagline,
          artwork: [liveArtwork],
        };
      }
    }
    if (key === this.key) return;
    this.key = key;
    navigator.mediaSession.metadata = metadata ? new MediaMetadata(metadata) : null;
    navigator.mediaSession.playbackState = playing ? "playing" : metadata ? "paused" : "none";
  }
}
