import { useHeightVariable } from "~/hooks/useHeightVariable";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { MessageKey } from "~/i18n/keys";
import { useT, type Translator } from "~/i18n/translate";
import type { StationIdentity } from "~/services/config.server";
import { usePlayerState } from "~/hooks/usePlayer";
import { useRealtime, useRealtimeConnected } from "~/hooks/useRealtime";
import { getPlayer, type LiveStatus, type NowPlaying, type PlayerState } from "~/utils/player";
import { rewindActions, startRewind } from "~/utils/rewind-state";
import { stationIconUrl } from "~/utils/station-icon";
import { Icon } from "./Icon";
import { RewindButton, useRewindState } from "./RewindButton";
import { PlayerOnAir, useOnAirRefresh, type PlayerOnAirData } from "./PlayerOnAir";

// The bar's episode controls (./EpisodeBar): loaded with the player's episode half, on the first
// episode cued or played, or ahead when a ▶ is about to be pressed (most listeners only tune in live).
let EpisodeBar: typeof import("./EpisodeBar").EpisodeBar | null = null;
const loadEpisodeBar = () =>
  import("./EpisodeBar").then((module) => {
    EpisodeBar = module.EpisodeBar;
  });
// The controls while rewinding (./RewindControls, travelling in the episode controls' chunk): loaded
// when a rewind starts, like the rewinding code (~/utils/rewind-state).
const RewindControls = lazy(() => import("./EpisodeBar").then((module) => ({ default: module.RewindControls })));

const STREAM_PATH = "/stream/live";
const VOLUME_KEY = "live-player:volume";
const MUTED_KEY = "live-player:muted";

const statusText: Record<Exclude<LiveStatus, "reconnecting">, MessageKey> = {
  idle: "player.statusIdle",
  connecting: "player.statusConnecting",
  playing: "player.statusPlaying",
  buffering: "player.statusBuffering",
  offline: "player.statusOffline",
};

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

function liveLine(state: PlayerState["live"], secondsLeft: number, t: Translator["t"]): string | null {
  const { status, nowPlaying } = state;
  if (status === "reconnecting") {
    if (secondsLeft > 0) return t(nowPlaying.onAir ? "player.reconnectingIn" : "player.offAirRetryIn", { seconds: secondsLeft });
    return t(nowPlaying.onAir ? "player.reconnectingNow" : "player.offAirRetryNow");
  }
  if (status === "idle" || status === "playing") {
    if (!nowPlaying.onAir) return t("player.offAirNow");
    if (nowPlaying.title) return null; // the title itself
  }
  return t(statusText[status as Exclude<LiveStatus, "reconnecting">]);
}

/**
 * The one player bar, fixed to the bottom of every page (root layout, so audio
 * survives navigation): the live stream, or the episode chosen last. Without
 * JavaScript it is the browser's own player for the live stream.
 */
export function PlayerBar({
  station,
  signedIn,
  nowPlaying,
  onAir,
  stationTimeZone,
  canRewind,
}: {
  station: StationIdentity;
  signedIn: boolean;
  nowPlaying: NowPlaying;
  onAir: PlayerOnAirData;
  stationTimeZone: string;
  /** The server records the live stream (there is a window to rewind in). */
  canRewind: boolean;
}) {
  const { t } = useT();
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
  useOnAirRefresh(onAir);
  const rewind = useRewindState();

  useEffect(() => {
    player.station = { name: station.name, tagline: station.tagline, artworkUrl, liveTitle: t("player.liveTitle", { station: station.name }) };
    const detach = player.attach(liveAudio.current!, episodeAudio.current!, { signedIn, nowPlaying, loadEpisodeControls: loadEpisodeBar });
    setHydrated(true);
    const savedVolume = Number(localStorage.getItem(VOLUME_KEY));
    if (localStorage.getItem(VOLUME_KEY) !== null && savedVolume >= 0 && savedVolume <= 1) setVolume(savedVolume);
    setMuted(localStorage.getItem(MUTED_KEY) === "true");
    return detach;
    // The bar lives as long as the page; later loader data only updates what follows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => player.setSignedIn(signedIn), [player, signedIn]);
  // The bar outlives page navigation, and so does the listening session it reports. Its code loads
  // when the live stream first starts: most visits to /listen never play (first-load budget, issue 14).
  useEffect(() => {
    let stopTracking: (() => void) | null = null;
    let detached = false;
    const stopWaiting = player.subscribe(() => {
      if (player.getState().live.status === "idle") return;
      stopWaiting();
      import("~/utils/listening-session").then(
        ({ trackLiveListening }) => {
          if (!detached) stopTracking = trackLiveListening(player);
        },
        () => {}, // Offline, or a new deployment removed the chunk: this visit goes uncounted.
      );
    });
    return () => {
      detached = true;
      stopWaiting();
      stopTracking?.();
    };
  }, [player]);
  // The lock screen shows the show on air (its artwork, else the station's) and its "back" rewinds the stream.
  const showOnAir = onAir.now;
  useEffect(() => player.setLiveShow(showOnAir && { name: showOnAir.name, artwork: showOnAir.artwork }), [player, showOnAir]);
  useEffect(() => player.setLiveRewind(canRewind ? (secondsBack) => void startRewind(secondsBack) : null), [player, canRewind]);

  const heard = (next: Partial<NowPlaying> | undefined) => {
    if (next) player.nowPlayingChanged({ title: next.title ?? null, onAir: next.onAir !== false });
  };
  const pushesHeard = useRef(0);
  useRealtime<{ records: NowPlaying[] }>("nowplaying:changed", (change) => {
    pushesHeard.current += 1;
    heard(change.records?.[0]);
  });
  // Whatever changed before the connection was up (or while it was down) was not pushed to this tab.
  useRealtimeConnected(() => {
    const pushesBefore = pushesHeard.current;
    fetch("/now-playing", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<NowPlaying>) : undefined))
      .then((state) => {
        // Every change after the connection was up is pushed, in order: one pushed while this
        // request was on its way is at least as new as its answer, which would put it back.
        if (pushesHeard.current === pushesBefore) heard(state);
      })
      .catch(() => {});
  });

  // Pages reserve the bar's real height (it grows for an episode and with long titles).
  useHeightVariable(bar, "--player-height");

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
  // On the play page of the episode it shows, the page's own player is the one episode player: the bar
  // offers the live stream there instead of a second set of the same episode's controls (its audio plays on).
  const barShowsEpisode = showEpisode && state.pageEpisodeId !== episode.info.id;
  const liveActive = live.status !== "idle";
  const liveNow = hydrated ? live.nowPlaying : nowPlaying;
  // Rewinding: the song at the playhead, not the live edge's.
  const line = rewind.active
    ? rewind.error !== null
      ? t("player.rewindUnavailable", { reason: rewind.error })
      : rewind.title
        ? null
        : t("player.rewinding")
    : liveLine({ ...live, nowPlaying: liveNow }, secondsLeft, t);
  const shownTitle = rewind.active ? rewind.title : liveNow.title;

  const volumeControl = (
    <div className="live-player__volume">
      <button type="button" className="icon-button" aria-label={t(muted ? "player.unmute" : "player.mute")} aria-pressed={muted} onClick={toggleMute}>
        <Icon name={muted || volume === 0 ? "mute" : "volume"} />
      </button>
      <label className="visually-hidden" htmlFor="live-volume">
        {t("player.volume")}
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
      aria-label={barShowsEpisode ? t("player.episodePlayer", { title: episode.info.title }) : t("player.liveStream", { station: station.name })}
      data-status={live.status}
      data-showing={barShowsEpisode ? "episode" : "live"}
      data-on-air={liveNow.onAir}
      data-rewinding={rewind.active || undefined}
    >
      <div className="live-player__inner container">
        {barShowsEpisode ? (
          // The player shows an episode only once its controls have loaded (see loadEpisodeBar).
          EpisodeBar && <EpisodeBar station={station} episode={episode} speed={state.speed} />
        ) : (
          <>
            <img className="live-player__art" src={artworkUrl} alt="" width={48} height={48} />
            <div className="live-player__text">
              <p className="live-player__station">
                {/* Rewinding is not live: the badge says so, and the controls say how far behind. */}
                <span className="live-badge" data-on-air={(!rewind.active && live.status === "playing" && liveNow.onAir) || undefined}>
                  {t(rewind.active ? "player.rewindBadge" : "player.liveBadge")}
                </span>
                <span className="live-player__name">{station.name}</span>
                {live.back && <span className="live-player__back">{t("player.backOnAir")}</span>}
              </p>
              <p className="live-player__now" aria-live="polite">
                {line ?? (
                  <>
                    <span className="visually-hidden">{t("player.nowPlaying")} </span>
                    <span className="live-player__title" data-testid="now-playing-title">
                      {shownTitle}
                    </span>
                  </>
                )}
              </p>
              <PlayerOnAir onAir={onAir} stationTimeZone={stationTimeZone} />
            </div>
            {hydrated ? (
              <>
                {rewind.active ? (
                  <Suspense fallback={null}>
                    <RewindControls state={rewind} actions={rewindActions} />
                  </Suspense>
                ) : (
                  <>
                    {canRewind && <RewindButton />}
                    <button
                      type="button"
                      className="live-player__toggle"
                      data-busy={live.status === "connecting" || live.status === "buffering" || live.status === "reconnecting" || undefined}
                      aria-label={t(liveActive ? "player.pauseLive" : "player.playLive")}
                      onClick={liveActive ? player.stopLive : player.playLive}
                    >
                      <Icon name={liveActive ? "pause" : "play"} size={28} />
                    </button>
                  </>
                )}
                {volumeControl}
              </>
            ) : (
              // Without JavaScript the browser's own player tunes in (before hydration it only holds the place).
              <noscript>
                <audio
                  className="live-player__fallback"
                  controls
                  preload="none"
                  src={STREAM_PATH}
                  aria-label={t("player.liveStream", { station: station.name })}
                />
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
