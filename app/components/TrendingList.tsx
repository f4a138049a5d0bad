import { Link } from "@remix-run/react";
import type { TrendingEpisode } from "~/models/plays.server";
import { useT } from "~/i18n/translate";
import { formatDuration } from "~/utils/format";
import { mediaUrlFor } from "~/utils/media";

type TrendingRow = Pick<TrendingEpisode, "id" | "title" | "durationSeconds" | "plays"> & { cover: TrendingEpisode["cover"] };

/** TRENDING as a ranked chart: position, cover, title, plays this week. */
export function TrendingList({ episodes }: { episodes: TrendingRow[] }) {
  const { t } = useT();
  return (
    <ol className="trending-list" aria-label={t("news.trendingLabel")}>
      {episodes.map((episode, index) => (
        <li key={episode.id} className="trending-item">
          <span className="trending-item__rank" aria-hidden="true">
            {index + 1}
          </span>
          <img
            className="trending-item__cover"
            src={mediaUrlFor(episode.cover, 160)}
            alt=""
            width={64}
            height={64}
            loading={index < 3 ? "eager" : "lazy"}
            decoding="async"
          />
          <div className="trending-item__text">
            <Link to={`/play/${episode.id}`} className="trending-item__link">
              <span className="visually-hidden">{t("news.trendingRank", { rank: index + 1 })}</span>
              {episode.title}
            </Link>
            <p className="trending-item__meta">{t("news.trendingMeta", { count: episode.plays, duration: formatDuration(episode.durationSeconds) })}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
