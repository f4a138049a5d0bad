import { useEffect, useRef, useState } from "react";
import { useEpisodeResume } from "~/hooks/useEpisodeResume";
import { shareUrlAt } from "~/utils/episode-share";
import { claimAudioFocus, onAudioFocusLost } from "~/utils/audio-focus";
import { formatDuration } from "~/utils/format";
import { reportPlay } from "~/utils/plays";
import { Icon } from "./Icon";

const SPEEDS = [0.75, 1, 1.25, 1.5, 2];

/**
 * A podcast episode's player: big play button, full-width scrubber with elapsed and
 * remaining time, speed and share. Without JavaScript the browser's own controls show.
 */
export function EpisodePlayer({
  episodeId,
  title,
  audioUrl,
  coverUrl,
  stationName,
  durationSeconds,
}: {
  episodeId: number;
  title: string;
  audioUrl: string;
  coverUrl: string;
  stationName: string;
  durationSeconds: number;
}) {
  const audio = useRef<HTMLAudioElement>(null);
  // Seconds really heard (playback added up, seeks not), for the play report.
  const heard = useRef({ seconds: 0, lastTime: null as number | null });
  const owner = `episode:${episodeId}`;
  const [hydrated, setHydrated] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [buffering, setBuffering] = useState(false);
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState(durationSeconds);
  const [speed, setSpeed] = useState(1);
  const [shareStatus, setShareStatus] = useState("");

  useEffect(() => setHydrated(true), []);
  useEpisodeResume(audio, episodeId);
  useEffect(() => onAudioFocusLost(owner, () => audio.current?.pause()), [owner]);
  useEffect(() => {
    if (audio.current) audio.current.playbackRate = speed;
  }, [speed]);

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => setPlaying(false));
    else element.pause();
  };

  const share = async () => {
    const url = shareUrlAt(window.location.href, audio.current?.currentTime ?? 0);
    try {
      if (navigator.share) {
        await navigator.share({ title, text: `${title} · ${stationName}`, url });
        setShareStatus("");
      } else {
        await navigator.clipboard.writeText(url);
        setShareStatus("Link copied to the clipboard.");
      }
    } catch (error) {
      // Closing the share sheet is not an error worth showing.
      if (!(error instanceof DOMException && error.name === "AbortError")) setShareStatus(`Copy this link to share: ${url}`);
    }
  };

  return (
    <div className="episode-player">
      <audio
        ref={audio}
        src={audioUrl}
        preload="metadata"
        controls={!hydrated}
        data-testid="episode-audio"
        onPlay={() => {
          claimAudioFocus(owner);
          reportPlay(episodeId, { heardSeconds: heard.current.seconds, durationSeconds: duration });
          if ("mediaSession" in navigator) {
            navigator.mediaSession.metadata = new MediaMetadata({
              title,
              artist: stationName,
              artwork: [{ src: new URL(coverUrl, window.location.href).href, sizes: "640x640" }],
            });
          }
        }}
        onPlaying={() => {
          setPlaying(true);
          setBuffering(false);
        }}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onWaiting={() => setBuffering(true)}
        onTimeUpdate={(event) => {
          const time = event.currentTarget.currentTime;
          setPosition(time);
          const step = heard.current.lastTime === null ? 0 : time - heard.current.lastTime;
          // timeupdate fires a few times a second; a bigger jump is a seek, not listening.
          if (step > 0 && step < 3) heard.current.seconds += step;
          heard.current.lastTime = time;
          if (!event.currentTarget.paused) reportPlay(episodeId, { heardSeconds: heard.current.seconds, durationSeconds: duration });
        }}
        onSeeking={() => (heard.current.lastTime = null)}
        onLoadedMetadata={(event) => Number.isFinite(event.currentTarget.duration) && setDuration(event.currentTarget.duration)}
      />
      {hydrated && (
        <>
          <label className="visually-hidden" htmlFor="episode-scrubber">
            Position in {title}
          </label>
          <input
            id="episode-scrubber"
            className="episode-player__scrubber"
            type="range"
            min={0}
            max={Math.max(1, Math.round(duration))}
            step={1}
            value={Math.round(position)}
            aria-valuetext={`${formatDuration(position)} of ${formatDuration(duration)}`}
            onChange={(event) => {
              const value = Number(event.target.value);
              if (audio.current) audio.current.currentTime = value;
              setPosition(value);
            }}
          />
          <div className="episode-player__times" aria-hidden="true">
            <span>{formatDuration(position)}</span>
            <span>-{formatDuration(Math.max(0, duration - position))}</span>
          </div>
          <div className="episode-player__controls">
            <label className="visually-hidden" htmlFor="episode-speed">
              Playback speed
            </label>
            <select id="episode-speed" className="episode-player__speed" value={speed} onChange={(event) => setSpeed(Number(event.target.value))}>
              {SPEEDS.map((value) => (
                <option key={value} value={value}>
                  {value}×
                </option>
              ))}
            </select>
            <button
              type="button"
              className="live-player__toggle"
              data-busy={(playing && buffering) || undefined}
              aria-label={playing ? `Pause ${title}` : `Play ${title}`}
              onClick={toggle}
            >
              <Icon name={playing ? "pause" : "play"} size={28} />
            </button>
            <button
              type="button"
              className="button button--ghost episode-player__share"
              aria-label={position >= 1 ? `Share at ${formatDuration(position)}` : "Share"}
              onClick={share}
            >
              <Icon name="share" size={20} />
              {position >= 1 ? (
                <span>
                  <span className="episode-player__share-prefix">Share at </span>
                  {formatDuration(position)}
                </span>
              ) : (
                "Share"
              )}
            </button>
          </div>
          <p className="share-status" role="status">
            {shareStatus}
          </p>
        </>
      )}
    </div>
  );
}
