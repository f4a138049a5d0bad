import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useT } from "~/i18n/translate";
import type { EpisodeCard } from "~/models/episodes.server";
import { formatDuration } from "~/utils/format";
import { mediaSrcSet, mediaUrl, mediaUrlFor, type MediaFile } from "~/utils/media";
import { getPlayer, isPlayedHere } from "~/utils/player";
import { prepareEpisodes, usePlayerValue } from "~/hooks/usePlayer";
import { FavoriteButton } from "./FavoriteButton";
import { Icon } from "./Icon";

type CardEpisode = Pick<EpisodeCard, "id" | "title" | "durationSeconds"> & {
  cover: MediaFile;
  audio: { key: string };
};

/** The original app's hand-over keys; /play/{id} itself loads the episode from the server. */
function rememberHandOver(episode: CardEpisode) {
  try {
    localStorage.setItem("link", mediaUrl(episode.cover));
    localStorage.setItem("podcast", mediaUrl(episode.audio));
  } catch {
    // Storage can be unavailable (private mode, quota): the play page does not need it.
  }
}

/**
 * An episode card. Its ▶ is a button that starts the episode in the player bar
 * without leaving the page (without JavaScript it is a link to /play/{id}, whose
 * audio plays it); the title opens the play page. Controls sit below the artwork so they
 * never cover a title printed on it.
 */
export function PodcastCard({ episode, eager = false }: { episode: CardEpisode; eager?: boolean }) {
  const playing = usePlayerValue((state) => state.episode?.info.id === episode.id && state.episode.playing, false);
  const playedInBar = usePlayerValue((state) => state.episode?.info.id === episode.id && state.episode.played, false);
  const { t } = useT();
  const [playedHere, setPlayedHere] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setPlayedHere(isPlayedHere(episode.id)), [episode.id]);
  useEffect(() => setHydrated(true), []);
  const played = playedInBar || playedHere;
  const info = {
    id: episode.id,
    title: episode.title,
    audioUrl: mediaUrl(episode.audio),
    coverUrl: mediaUrlFor(episode.cover, 640),
    durationSeconds: episode.durationSeconds,
  };
  const label = t(playing ? "podcast.pauseEpisode" : "podcast.playEpisode", { title: episode.title });
  return (
    <li className="podcast-card" data-playing={playing || undefined}>
      <div className="podcast-card__cover">
        <img
          src={mediaUrlFor(episode.cover, 640)}
          srcSet={mediaSrcSet(episode.cover)}
          sizes="(min-width: 960px) 220px, 45vw"
          alt=""
          width={400}
          height={400}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
        />
      </div>
      <Link to={`/play/${episode.id}`} className="podcast-card__link" onClick={() => rememberHandOver(episode)}>
        <h3 className="podcast-card__title">{episode.title}</h3>
      </Link>
      <div className="podcast-card__actions">
        {hydrated ? (
          // It plays here, in the bar: an action, so a button (the title is the link to the play page).
          <button
            type="button"
            className="podcast-card__play"
            aria-label={label}
            // The player's episode half arrives while the finger or pointer is on its way.
            onPointerEnter={prepareEpisodes}
            onFocus={prepareEpisodes}
            onClick={() => {
              rememberHandOver(episode);
              const player = getPlayer();
              if (player.getState().episode?.info.id === episode.id) player.toggleEpisode();
              else player.playEpisode(info);
            }}
          >
            <Icon name={playing ? "pause" : "play"} />
          </button>
        ) : (
          // Without JavaScript (and until it runs) the play page plays it.
          <Link to={`/play/${episode.id}`} className="podcast-card__play" aria-label={label}>
            <Icon name="play" />
          </Link>
        )}
        <p className="podcast-card__meta">
          {formatDuration(episode.durationSeconds)}
          {played && <span className="podcast-card__played"> · {t("podcast.played")}</span>}
        </p>
        <FavoriteButton episodeId={episode.id} title={episode.title} />
      </div>
    </li>
  );
}

/** The cards in rows, or a short note when the station has not published anything yet. */
export function PodcastCardList({ episodes, label }: { episodes: CardEpisode[]; label: string }) {
  const { t } = useT();
  if (episodes.length === 0) {
    return (
      <p className="empty-state">
        <Icon name="radio" />
        {t("podcast.noEpisodes")}
      </p>
    );
  }
  return (
    <ul className="card-grid" aria-label={label}>
      {episodes.map((episode, index) => (
        <PodcastCard key={episode.id} episode={episode} eager={index < 2} />
      ))}
    </ul>
  );
}
