import { Link } from "@remix-run/react";
import type { EpisodeCard } from "~/models/podcasts.server";
import { formatDuration } from "~/utils/format";
import { mediaSrcSet, mediaUrl, mediaUrlFor, type MediaFile } from "~/utils/media";
import { FavoriteButton } from "./FavoriteButton";
import { Icon } from "./Icon";

type CardEpisode = Pick<EpisodeCard, "id" | "title" | "durationSeconds"> & {
  cover: MediaFile;
  audio: { key: string };
};

export function PodcastCard({ episode, eager = false }: { episode: CardEpisode; eager?: boolean }) {
  return (
    <li className="podcast-card">
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
        <span className="podcast-card__play" aria-hidden="true">
          <Icon name="play" />
        </span>
      </div>
      <FavoriteButton episodeId={episode.id} title={episode.title} />
      <Link
        to={`/play/${episode.id}`}
        className="podcast-card__link"
        onClick={() => {
          // The spec's hand-over keys; /play/{id} itself loads the episode from the server.
          try {
            localStorage.setItem("link", mediaUrl(episode.cover));
            localStorage.setItem("podcast", mediaUrl(episode.audio));
          } catch {
            // Storage can be unavailable (private mode, quota): the play page does not need it.
          }
        }}
      >
        <h3 className="podcast-card__title">{episode.title}</h3>
      </Link>
      <p className="podcast-card__meta">{formatDuration(episode.durationSeconds)}</p>
    </li>
  );
}

/** The cards in rows, or a short note when the station has not published anything yet. */
export function PodcastCardList({ episodes, label }: { episodes: CardEpisode[]; label: string }) {
  if (episodes.length === 0) {
    return (
      <p className="empty-state">
        <Icon name="radio" />
        No episodes have been published yet.
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
