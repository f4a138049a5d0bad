import { Link } from "@remix-run/react";
import type { StationIdentity } from "~/services/config.server";
import { formatDuration } from "~/utils/format";
import { getPlayer, SPEEDS, type EpisodeState } from "~/utils/player";
import { Icon } from "./Icon";

/** The player bar while it shows an episode: cover, title, skips, scrubber and speed (loaded with the first episode). */
export function EpisodeBar({ station, episode, speed }: { station: StationIdentity; episode: EpisodeState; speed: number }) {
  const player = getPlayer();
  return (
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
        <select id="player-speed" className="player-episode__speed" value={speed} onChange={(event) => player.setSpeed(Number(event.target.value))}>
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
  );
}
