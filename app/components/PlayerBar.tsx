import { Link } from "@remix-run/react";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { StationIdentity } from "~/services/config.server";
import { useRealtime, useRealtimeConnected } from "~/hooks/useRealtime";
import { formatDuration } from "~/utils/format";
import { getPlayer, SPEEDS, type LiveStatus, type NowPlaying, type PlayerState } from "~/utils/player";
import { stationIconUrl } from "~/utils/station-icon";
import { Icon } from "./Icon";

const STREAM_PATH = "/stream/live";
const VOLUME_KEY = "live-player:volume";
const MUTED_KEY = "live-player:muted";

const statusText: Record<Exclude<LiveStatus, "reconnecting">, string> = {
  idle: "Tap play to tune in",
  connecting: "Connecting…",
  playing: "On air now",
  buffering: "Buffering…",
  offline: "You are offline. We will reconnect when you are back.",
};

/** The player's state for components; the same object on the server and in the first client render. */
export function usePlayerState(): PlayerState {
  const player = getPlayer();
  return useSyncExternalStore(player.subscribe, player.getState, player.getState);
}

/** One value of the player's state; re-renders only when it changes (cards, the play page). */
export function usePlayerValue<T>(select: (state: PlayerState) => T, serverValue: T): T {
  const player = getPlayer();
  return useSyncExternalStore(
    player.subscribe,
    () => select(player.getState()),
    () => serverValue,
  );
}

function useSecondsUntil(at: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

function liveLine(state: PlayerState["live"], secondsLeft: number): string | null {
  const { status, nowPlaying } = state;
  if (status === "reconnecting") {
    const when = secondsLeft > 0 ? `in ${secondsLeft} s` : "now";
    return nowPlaying.onAir ? `Connection lost. Reconnecting ${when}…` : `The stream is off the air. Trying again ${when}…`;
  }
  if (status === "idle" || status === "playing") {
    if (!nowPlaying.onAir) return "The stream is off the air right now.";
    if (nowPlaying.title) return null; // the title itself
  }
  return statusText[status as Exclude<LiveStatus, "reconnecting">];
}

/**
 * The one player bar, fixed to the bottom of every page (root layout, so audio
 * survives navigation): the live stream, or the episode chosen last. Without
 * JavaScript it is the browser's own player for the live stream.
 */
export function PlayerBar({ station, signedIn, nowPlaying }: { station: StationIdentity; signedIn: boolean; nowPlaying: NowPlaying }) {
  const artworkUrl = stationIconUrl(station);
  const liveAudio = useRef<HTMLAudioElement>(null);
  const episodeAudio = useRef<HTMLAudioElement>(null);
  const bar = useRef<HTMLElement>(null);
  const player = getPlayer();
  const state = usePlayerState();
  const [hydrated, setHydrated] = useState(false);
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  const secondsLeft = useSecondsUntil(state.live.retryAt);

  useEffect(() => {
    player.station = { name: station.name, tagline: station.tagline, artworkUrl };
    const detach = player.attach(liveAudio.current!, episodeAudio.current!, { signedIn, nowPlaying });
    setHydrated(true);
    const savedVolume = Number(localStorage.getItem(VOLUME_KEY));
    if (localStorage.getItem(VOLUME_KEY) !== null && savedVolume >= 0 && savedVolume <= 1) setVolume(savedVolume);
    setMuted(localStorage.getItem(MUTED_KEY) === "true");
    return detach;
    // The bar lives as long as the page; later loader data only updates what follows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => player.setSignedIn(signedIn), [player, signedIn]);

  const heard = (next: Partial<NowPlaying> | undefined) => {
    if (next) player.nowPlayingChanged({ title: next.title ?? null, onAir: next.onAir !== false });
  };
  useRealtime<{ records: NowPlaying[] }>("nowplaying:changed", (change) => heard(change.records?.[0]));
  // Whatever changed before the connection was up (or while it was down) was not pushed to this tab.
  useRealtimeConnected(() => {
    fetch("/now-playing", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<NowPlaying>) : undefined))
      .then(heard)
      .catch(() => {});
  });

  // Pages reserve the bar's real height (it grows for an episode and with long titles).
  useEffect(() => {
    const element = bar.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => document.documentElement.style.setProperty("--player-height", `${element.offsetHeight}px`));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    for (const element of [liveAudio.current, episodeAudio.current]) {
      if (!element) continue;
      element.volume = volume;
      element.muted = muted;
    }
  }, [volume, muted]);

  // Keyboard: k toggles, j/l skip back 15 s / ahead 30 s (not while typing into a field).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, select, textarea, [contenteditable]")) return;
      const { showing, episode, live } = player.getState();
      const key = event.key.toLowerCase();
      if (key === "k") {
        if (showing === "episode" && episode) player.toggleEpisode();
        else if (live.status === "idle") player.playLive();
        else player.stopLive();
      } else if (showing === "episode" && episode && (key === "j" || key === "l")) {
        player.skip(key === "j" ? -15 : 30);
      } else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [player]);

  const changeVolume = (value: number) => {
    setVolume(value);
    setMuted(value === 0);
    localStorage.setItem(VOLUME_KEY, String(value));
    localStorage.setItem(MUTED_KEY, String(value === 0));
  };
  const toggleMute = () => {
    const next = !muted;
    setMuted(next);
    localStorage.setItem(MUTED_KEY, String(next));
    if (!next && volume === 0) changeVolume(0.5);
  };

  const { live, episode } = state;
  const showEpisode = hydrated && state.showing === "episode" && episode !== null;
  const liveActive = live.status !== "idle";
  const liveNow = hydrated ? live.nowPlaying : nowPlaying;
  const line = liveLine({ ...live, nowPlaying: liveNow }, secondsLeft);

  const volumeControl = (
    <div className="live-player__volume">
      <button type="button" className="icon-button" aria-label={muted ? "Unmute" : "Mute"} aria-pressed={muted} onClick={toggleMute}>
        <Icon name={muted || volume === 0 ? "mute" : "volume"} />
      </button>
      <label className="visually-hidden" htmlFor="live-volume">
        Volume
      </label>
      <input
        id="live-volume"
        type="range"
        min={0}
        max={1}
        step={0.05}
        value={muted ? 0 : volume}
        onChange={(event) => changeVolume(Number(event.target.value))}
        aria-valuetext={`${Math.round((muted ? 0 : volume) * 100)}%`}
      />
    </div>
  );

  return (
    <section
      ref={bar}
      className="live-player"
      aria-label={showEpisode ? `Player: ${episode.info.title}` : `${station.name} live stream`}
      data-status={live.status}
      data-showing={showEpisode ? "episode" : "live"}
      data-on-air={liveNow.onAir}
    >
      <div className="live-player__inner container">
        {showEpisode ? (
          <div className="player-episode">
            <Link to={`/play/${episode.info.id}`} className="player-episode__cover" tabIndex={-1} aria-hidden="true">
              <img src={episode.info.coverUrl} alt="" width={48} height={48} />
            </Link>
            <div className="player-episode__text">
              <Link to={`/play/${episode.info.id}`} className="player-episode__title">
                {episode.info.title}
              </Link>
              <p className="player-episode__meta">
                {episode.played ? "Played · " : ""}
                {station.name}
              </p>
            </div>
            <div className="player-episode__buttons">
              <button type="button" className="icon-button player-episode__skip" aria-label="Back 15 seconds" onClick={() => player.skip(-15)}>
                −15
              </button>
              <button
                type="button"
                className="live-player__toggle"
                data-busy={(episode.playing && episode.buffering) || undefined}
                aria-label={episode.playing ? "Pause" : "Play"}
                onClick={player.toggleEpisode}
              >
                <Icon name={episode.playing ? "pause" : "play"} size={28} />
              </button>
              <button type="button" className="icon-button player-episode__skip" aria-label="Ahead 30 seconds" onClick={() => player.skip(30)}>
                +30
              </button>
            </div>
            <div className="player-episode__progress">
              <span className="player-episode__time">{formatDuration(episode.position)}</span>
              <label className="visually-hidden" htmlFor="player-scrubber">
                Position in {episode.info.title}
              </label>
              <input
                id="player-scrubber"
                className="player-episode__scrubber"
                type="range"
                min={0}
                max={Math.max(1, Math.round(episode.duration))}
                step={1}
                value={Math.round(episode.position)}
                aria-valuetext={`${formatDuration(episode.position)} of ${formatDuration(episode.duration)}`}
                onChange={(event) => player.seek(Number(event.target.value))}
              />
              <span className="player-episode__time">-{formatDuration(Math.max(0, episode.duration - episode.position))}</span>
              <label className="visually-hidden" htmlFor="player-speed">
                Playback speed
              </label>
              <select id="player-speed" className="player-episode__speed" value={state.speed} onChange={(event) => player.setSpeed(Number(event.target.value))}>
                {SPEEDS.map((value) => (
                  <option key={value} value={value}>
                    {value}×
                  </option>
                ))}
              </select>
              <button type="button" className="player-episode__live" aria-label="Play the live stream" onClick={player.playLive}>
                <span className="live-badge">LIVE</span>
              </button>
            </div>
          </div>
        ) : (
          <>
            <img className="live-player__art" src={artworkUrl} alt="" width={48} height={48} />
            <div className="live-player__text">
              <p className="live-player__station">
                <span className="live-badge" data-on-air={(live.status === "playing" && liveNow.onAir) || undefined}>
                  LIVE
                </span>
                <span className="live-player__name">{station.name}</span>
                {live.back && <span className="live-player__back">Back on air</span>}
              </p>
              <p className="live-player__now" aria-live="polite">
                {line ?? (
                  <>
                    <span className="visually-hidden">Now playing: </span>
                    <span className="live-player__title" data-testid="now-playing-title">
                      {liveNow.title}
                    </span>
                  </>
                )}
              </p>
            </div>
            {hydrated ? (
              <>
                <button
                  type="button"
                  className="live-player__toggle"
                  data-busy={live.status === "connecting" || live.status === "buffering" || live.status === "reconnecting" || undefined}
                  aria-label={liveActive ? "Pause the live stream" : "Play the live stream"}
                  onClick={liveActive ? player.stopLive : player.playLive}
                >
                  <Icon name={liveActive ? "pause" : "play"} size={28} />
                </button>
                {volumeControl}
              </>
            ) : (
              // Without JavaScript the browser's own player tunes in (before hydration it only holds the place).
              <noscript>
                <audio className="live-player__fallback" controls preload="none" src={STREAM_PATH} aria-label={`${station.name} live stream`} />
              </noscript>
            )}
          </>
        )}
        {/* Both stay mounted for the page's life: the bar is in the root layout, so audio survives navigation. */}
        <audio ref={liveAudio} preload="none" data-testid="live-audio" />
        <audio ref={episodeAudio} preload="metadata" data-testid="episode-audio" />
      </div>
    </section>
  );
}
