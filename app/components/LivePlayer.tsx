import { useCallback, useEffect, useRef, useState } from "react";
import type { StationIdentity } from "~/services/config.server";
import { claimAudioFocus, onAudioFocusLost } from "~/utils/audio-focus";
import { stationIconUrl } from "~/utils/station-icon";
import { Icon } from "./Icon";

export type LiveStatus = "idle" | "connecting" | "playing" | "buffering" | "reconnecting" | "offline";

const STREAM_PATH = "/stream/live";
const VOLUME_KEY = "live-player:volume";
const MUTED_KEY = "live-player:muted";
const OWNER = "live-player";
const NOW_PLAYING_EVERY_MS = 20_000;
const MAX_BACKOFF_MS = 30_000;
// A stream that buffers this long without recovering is treated as dropped.
const STALL_TIMEOUT_MS = 12_000;

const statusText: Record<LiveStatus, string> = {
  idle: "Tap play to tune in",
  connecting: "Connecting…",
  playing: "On air now",
  buffering: "Buffering…",
  reconnecting: "Connection lost, reconnecting…",
  offline: "You are offline. We will reconnect when you are back.",
};

/** The next wait before reconnecting: 1 s, 2 s, 4 s … up to 30 s, with jitter so listeners do not reconnect in lockstep. */
export function reconnectDelay(attempt: number): number {
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** The live stream bar, fixed to the bottom of every page; it lives in the root layout so audio survives navigation. */
export function LivePlayer({ station }: { station: StationIdentity }) {
  const artworkUrl = stationIconUrl(station);
  const audio = useRef<HTMLAudioElement>(null);
  const wantsToPlay = useRef(false);
  const attempt = useRef(0);
  const retryTimer = useRef<ReturnType<typeof setTimeout>>();
  const stallTimer = useRef<ReturnType<typeof setTimeout>>();
  const [status, setStatus] = useState<LiveStatus>("idle");
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  const [nowPlaying, setNowPlaying] = useState<string | null>(null);
  const [hydrated, setHydrated] = useState(false);

  const clearTimers = () => {
    clearTimeout(retryTimer.current);
    clearTimeout(stallTimer.current);
  };

  const connect = useCallback(() => {
    const element = audio.current;
    if (!element) return;
    clearTimers();
    // A fresh URL each time: always the live edge, never a stale buffered copy.
    element.src = `${STREAM_PATH}?listen=${Date.now().toString(36)}`;
    element.play().catch((error: unknown) => {
      // The browser refused to start (autoplay policy): wait for the listener's next tap.
      if (error instanceof DOMException && error.name === "NotAllowedError") {
        wantsToPlay.current = false;
        setStatus("idle");
      }
    });
  }, []);

  const disconnect = useCallback(() => {
    const element = audio.current;
    clearTimers();
    if (!element) return;
    element.pause();
    // Dropping the source stops the download; a live stream is never resumed from a stale position.
    element.removeAttribute("src");
    element.load();
  }, []);

  const scheduleReconnect = useCallback(() => {
    if (!wantsToPlay.current) return;
    clearTimers();
    if (typeof navigator !== "undefined" && navigator.onLine === false) {
      setStatus("offline");
      return;
    }
    setStatus("reconnecting");
    retryTimer.current = setTimeout(connect, reconnectDelay(attempt.current));
    attempt.current += 1;
  }, [connect]);

  const start = useCallback(() => {
    wantsToPlay.current = true;
    attempt.current = 0;
    setStatus("connecting");
    claimAudioFocus(OWNER);
    connect();
  }, [connect]);

  const stop = useCallback(() => {
    wantsToPlay.current = false;
    disconnect();
    setStatus("idle");
  }, [disconnect]);

  // Restore the remembered volume once in the browser.
  useEffect(() => {
    setHydrated(true);
    const savedVolume = Number(localStorage.getItem(VOLUME_KEY));
    if (localStorage.getItem(VOLUME_KEY) !== null && savedVolume >= 0 && savedVolume <= 1) setVolume(savedVolume);
    setMuted(localStorage.getItem(MUTED_KEY) === "true");
  }, []);

  useEffect(() => {
    if (!audio.current) return;
    audio.current.volume = volume;
    audio.current.muted = muted;
  }, [volume, muted]);

  // Another player (a podcast here, or this station in another tab) took over.
  useEffect(() => onAudioFocusLost(OWNER, () => wantsToPlay.current && stop()), [stop]);

  // Back online: reconnect at once instead of waiting out the backoff.
  useEffect(() => {
    const online = () => {
      if (wantsToPlay.current) {
        attempt.current = 0;
        setStatus("connecting");
        connect();
      }
    };
    const offline = () => {
      if (wantsToPlay.current) {
        clearTimers();
        setStatus("offline");
      }
    };
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    return () => {
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
    };
  }, [connect]);

  useEffect(() => clearTimers, []);

  // "Now playing" while on air.
  useEffect(() => {
    if (status !== "playing") return;
    let cancelled = false;
    const refresh = () =>
      fetch("/now-playing")
        .then((response) => (response.ok ? (response.json() as Promise<{ title: string | null }>) : null))
        .then((body) => !cancelled && body && setNowPlaying(body.title))
        .catch(() => {});
    void refresh();
    const timer = setInterval(refresh, NOW_PLAYING_EVERY_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [status]);

  // Lock screen, notification and keyboard media keys.
  useEffect(() => {
    if (typeof navigator === "undefined" || !("mediaSession" in navigator) || status === "idle") return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: nowPlaying ?? `${station.name} live`,
      artist: station.name,
      album: station.tagline,
      artwork: [{ src: new URL(artworkUrl, window.location.href).href, sizes: "512x512" }],
    });
    navigator.mediaSession.playbackState = status === "playing" || status === "buffering" ? "playing" : "paused";
  }, [status, nowPlaying, station, artworkUrl]);

  useEffect(() => {
    if (typeof navigator === "undefined" || !("mediaSession" in navigator)) return;
    navigator.mediaSession.setActionHandler("play", start);
    navigator.mediaSession.setActionHandler("pause", stop);
    navigator.mediaSession.setActionHandler("stop", stop);
  }, [start, stop]);

  const active = status !== "idle";
  const busy = status === "connecting" || status === "buffering" || status === "reconnecting";
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

  return (
    <section className="live-player" aria-label={`${station.name} live stream`} data-status={status}>
      <div className="live-player__inner container">
        <img className="live-player__art" src={artworkUrl} alt="" width={48} height={48} />
        <div className="live-player__text">
          <p className="live-player__station">
            <span className="live-badge" data-on-air={status === "playing" || undefined}>
              LIVE
            </span>
            <span className="live-player__name">{station.name}</span>
          </p>
          <p className="live-player__now" aria-live="polite">
            {status === "playing" && nowPlaying ? (
              <>
                <span className="visually-hidden">Now playing: </span>
                {nowPlaying}
              </>
            ) : (
              statusText[status]
            )}
          </p>
        </div>
        <button
          type="button"
          className="live-player__toggle"
          data-busy={busy || undefined}
          aria-label={active ? "Pause the live stream" : "Play the live stream"}
          onClick={active ? stop : start}
          disabled={!hydrated}
        >
          <Icon name={active ? "pause" : "play"} size={28} />
        </button>
        <div className="live-player__volume">
          <button
            type="button"
            className="icon-button"
            aria-label={muted ? "Unmute" : "Mute"}
            aria-pressed={muted}
            onClick={toggleMute}
            disabled={!hydrated}
          >
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
            disabled={!hydrated}
          />
        </div>
        {/* Without JavaScript the browser's own player still tunes in. */}
        <noscript>
          <audio className="live-player__fallback" controls preload="none" src={STREAM_PATH} aria-label={`${station.name} live stream`} />
        </noscript>
        {/* The stream element stays mounted across navigations because this component lives in the root layout. */}
        <audio
          ref={audio}
          preload="none"
          data-testid="live-audio"
          onPlaying={() => {
            attempt.current = 0;
            clearTimers();
            setStatus("playing");
          }}
          onWaiting={() => {
            if (!wantsToPlay.current) return;
            setStatus("buffering");
            clearTimeout(stallTimer.current);
            stallTimer.current = setTimeout(scheduleReconnect, STALL_TIMEOUT_MS);
          }}
          onError={() => wantsToPlay.current && audio.current?.getAttribute("src") && scheduleReconnect()}
          onEnded={scheduleReconnect}
          onPause={() => {
            // Paused from outside our button (e.g. a headset or the OS): treat as stop.
            if (wantsToPlay.current && audio.current?.getAttribute("src") && status === "playing") stop();
          }}
        />
      </div>
    </section>
  );
}
