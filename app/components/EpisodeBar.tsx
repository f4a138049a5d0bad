import { Link } from "@remix-run/react";
import { useT } from "~/i18n/translate";
import type { StationIdentity } from "~/services/config.server";
import { formatDuration } from "~/utils/format";
import { getPlayer, SPEEDS, type EpisodeState } from "~/utils/player";
import { Icon } from "./Icon";

// The rewind controls travel in this chunk (PlayerBar loads them from here on the first rewind): alone,
// they reach React but not React DOM, and esbuild would then split React out of the framework chunk
// that every page loads (+600 bytes gzip on /listen, which has a first-load budget: issue 14).
export { RewindControls } from "./RewindControls";

/** The player bar while it shows an episode: cover, title, skips, scrubber and speed (loaded with the first episode). */
export function EpisodeBar({ station, episode, speed }: { station: StationIdentity; episode: EpisodeState; speed: number }) {
  const { t } = useT();
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
          {episode.played ? t("player.playedPrefix") : ""}
          {station.name}
        </p>
      </div>
      <div className="player-episode__buttons">
        <button type="button" className="icon-button player-episode__skip" aria-label={t("player.back15")} onClick={() => player.skip(-15)}>
          −15
        </button>
        <button
          type="button"
          className="live-player__toggle"
          data-busy={(episode.playing && episode.buffering) || undefined}
          aria-label={t(episode.playing ? "player.pause" : "player.play")}
          onClick={player.toggleEpisode}
        >
          <Icon name={episode.playing ? "pause" : "play"} size={28} />
        </button>
        <button type="button" className="icon-button player-episode__skip" aria-label={t("player.ahead30")} onClick={() => player.skip(30)}>
          +30
        </button>
      </div>
      <div className="player-episode__progress">
        <span className="player-episode__time">{formatDuration(episode.position)}</span>
        <label className="visually-hidden" htmlFor="player-scrubber">
          {t("player.positionIn", { title: episode.info.title })}
        </label>
        <input
          id="player-scrubber"
          className="player-episode__scrubber"
          type="range"
          min={0}
          max={Math.max(1, Math.round(episode.duration))}
          step={1}
          value={Math.round(episode.position)}
          aria-valuetext={t("player.positionOf", { position: formatDuration(episode.position), duration: formatDuration(episode.duration) })}
          onChange={(event) => player.seek(Number(event.target.value))}
        />
        <span className="player-episode__time">-{formatDuration(Math.max(0, episode.duration - episode.position))}</span>
        <label className="visually-hidden" htmlFor="player-speed">
          {t("player.speed")}
        </label>
        <select id="player-speed" className="player-episode__speed" value={speed} onChange={(event) => player.setSpeed(Number(event.target.value))}>
          {SPEEDS.map((value) => (
            <option key={value} value={value}>
              {value}×
            </option>
          ))}
        </select>
        <button type="button" className="player-episode__live" aria-label={t("player.playLive")} onClick={player.playLive}>
          <span className="live-badge">{t("player.liveBadge")}</span>
        </button>
      </div>
    </div>
  );
}
