import { useEffect, useState } from "react";
import type { MessageKey } from "~/i18n/keys";
import { useT } from "~/i18n/translate";
import { parseStartTime, shareUrlAt } from "~/utils/episode-share";
import { formatDuration } from "~/utils/format";
import { getPlayer, isPlayedHere, savedPosition, SPEEDS, type EpisodeInfo } from "~/utils/player";
import { EpisodeChapters } from "./EpisodeChapters";
import { EpisodeTranscript } from "./EpisodeTranscript";
import { Icon } from "./Icon";
import { usePlayerValue } from "~/hooks/usePlayer";

/**
 * The play page's controls for the ONE player (its audio lives in the bar, which stands aside
 * while it shows this episode): play/pause, skips, a scrubber, speed, and sharing at the current
 * second. Without JavaScript the browser's own controls play the episode here instead.
 */
export function EpisodePlayer({
  episode,
  stationName,
  startAt,
  progress,
  extras,
}: {
  episode: EpisodeInfo;
  stationName: string;
  /** A shared link's ?t= (also set as a media fragment on the no-JS audio). */
  startAt: number | null;
  /** The signed-in listener's stored place (any device), or null. */
  progress: { positionSeconds: number; played: boolean } | null;
  /** What the episode has besides its audio: only those are fetched. */
  extras: { chapters: boolean; transcript: boolean };
}) {
  const { t } = useT();
  const player = getPlayer();
  const [hydrated, setHydrated] = useState(false);
  // What the share button last did: a message, or the link to copy by hand.
  const [shareStatus, setShareStatus] = useState<{ key: MessageKey; url?: string } | null>(null);
  const [remembered, setRemembered] = useState<{ position: number; played: boolean }>({ position: 0, played: false });
  const loaded = usePlayerValue((state) => state.episode?.info.id === episode.id, false);
  const playing = usePlayerValue((state) => state.episode?.info.id === episode.id && state.episode.playing, false);
  const buffering = usePlayerValue((state) => state.episode?.info.id === episode.id && state.episode.buffering, false);
  const livePosition = usePlayerValue((state) => (state.episode?.info.id === episode.id ? Math.floor(state.episode.position) : -1), -1);
  const duration = usePlayerValue(
    (state) => (state.episode?.info.id === episode.id ? state.episode.duration : episode.durationSeconds),
    episode.durationSeconds,
  );
  const playedInBar = usePlayerValue((state) => state.episode?.info.id === episode.id && state.episode.played, false);
  const speed = usePlayerValue((state) => state.speed, 1);

  useEffect(() => {
    player.setPageEpisode(episode.id);
    return () => player.setPageEpisode(null);
  }, [player, episode.id]);

  useEffect(() => {
    setHydrated(true);
    const shared = parseStartTime(new URLSearchParams(window.location.search).get("t"));
    // The signed-in listener's place from the server wins over this browser's (it may be from another device).
    const serverPosition = progress && progress.positionSeconds > 0 ? progress.positionSeconds : null;
    player.cueEpisode(episode, { startAt: shared, serverPosition, autoplay: shared !== null });
    setRemembered({ position: serverPosition ?? savedPosition(episode.id) ?? 0, played: Boolean(progress?.played) || isPlayedHere(episode.id) });
    // Cue once per episode page; the bar keeps its own state afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [episode.id]);

  const position = livePosition >= 0 ? livePosition : remembered.position;
  const played = playedInBar || remembered.played;

  const share = async () => {
    const url = shareUrlAt(window.location.href, position);
    try {
      if (navigator.share) {
        await navigator.share({ title: episode.title, text: `${episode.title} · ${stationName}`, url });
        setShareStatus(null);
      } else {
        await navigator.clipboard.writeText(url);
        setShareStatus({ key: "player.linkCopied" });
      }
    } catch (error) {
      // Closing the share sheet is not an error worth showing.
      if (!(error instanceof DOMException && error.name === "AbortError")) setShareStatus({ key: "player.copyToShare", url });
    }
  };

  if (!hydrated) {
    return (
      <div className="episode-player">
        {/* Without JavaScript (and until it runs): the browser's own player. */}
        <audio
          src={`${episode.audioUrl}${startAt ? `#t=${startAt}` : ""}`}
          preload="metadata"
          controls
          data-testid="episode-audio-native"
          aria-label={t("player.playTitle", { title: episode.title })}
        />
      </div>
    );
  }

  // A chapter or a transcript line: play the episode in the bar from there.
  const seekTo = (seconds: number) => {
    if (!loaded) player.playEpisode(episode);
    player.seek(seconds);
    if (loaded && !playing) player.toggleEpisode();
  };

  const share_label = position >= 1 ? t("player.shareAt", { time: formatDuration(position) }) : t("player.share");
  return (
    <div className="episode-player" data-loaded={loaded || undefined}>
      <div className="episode-player__controls">
        {/* Skips act on the player's episode: only once it is this one. */}
        <button type="button" className="icon-button episode-player__skip" aria-label={t("player.back15")} disabled={!loaded} onClick={() => player.skip(-15)}>
          −15
        </button>
        <button
          type="button"
          className="live-player__toggle episode-player__toggle"
          data-busy={(playing && buffering) || undefined}
          aria-label={t(playing ? "player.pauseTitle" : "player.playTitle", { title: episode.title })}
          onClick={() => (loaded ? player.toggleEpisode() : player.playEpisode(episode))}
        >
          <Icon name={playing ? "pause" : "play"} size={36} />
        </button>
        <button type="button" className="icon-button episode-player__skip" aria-label={t("player.ahead30")} disabled={!loaded} onClick={() => player.skip(30)}>
          +30
        </button>
      </div>
      <label className="visually-hidden" htmlFor="episode-scrubber">
        {t("player.positionIn", { title: episode.title })}
      </label>
      <input
        id="episode-scrubber"
        className="episode-player__scrubber"
        type="range"
        min={0}
        max={Math.max(1, Math.round(duration))}
        step={1}
        value={Math.min(Math.round(position), Math.max(1, Math.round(duration)))}
        aria-valuetext={t("player.positionOf", { position: formatDuration(position), duration: formatDuration(duration) })}
        onChange={(event) => (loaded ? player.seek(Number(event.target.value)) : seekTo(Number(event.target.value)))}
      />
      <div className="episode-player__times">
        <span>
          <span className="visually-hidden">{t("player.elapsed")} </span>
          {formatDuration(position)}
        </span>
        {played && <span className="episode-player__played">{t("player.played")}</span>}
        <span>
          <span className="visually-hidden">{t("player.remaining")} </span>-{formatDuration(Math.max(0, duration - position))}
        </span>
      </div>
      <div className="episode-player__controls">
        <label className="visually-hidden" htmlFor="episode-speed">
          {t("player.speed")}
        </label>
        <select id="episode-speed" className="episode-player__speed" value={speed} onChange={(event) => player.setSpeed(Number(event.target.value))}>
          {SPEEDS.map((value) => (
            <option key={value} value={value}>
              {value}×
            </option>
          ))}
        </select>
        <button type="button" className="button button--ghost episode-player__share" aria-label={share_label} onClick={share}>
          <Icon name="share" size={20} />
          <span>{share_label}</span>
        </button>
      </div>
      <p className="share-status" role="status">
        {shareStatus && t(shareStatus.key, { url: shareStatus.url })}
      </p>
      {extras.chapters && <EpisodeChapters episodeId={episode.id} currentTime={position} onSeek={seekTo} />}
      {extras.transcript && <EpisodeTranscript episodeId={episode.id} currentTime={position} onSeek={seekTo} />}
    </div>
  );
}
