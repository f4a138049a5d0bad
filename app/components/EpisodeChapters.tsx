import { useEffect, useId, useState } from "react";
import type { EpisodeMediaProps } from "~/components/EpisodeTranscript";
import { useT } from "~/i18n/translate";
import type { Chapter } from "~/utils/transcript";

function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hh ? 2 : 1, "0");
  return `${hh ? `${hh}:` : ""}${mm}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * An episode's chapters (the same JSON podcast apps read): a list that
 * seeks on click and marks the chapter playing now. Renders nothing when the
 * episode has no chapters.
 */
export function EpisodeChapters({ episodeId, currentTime, onSeek }: EpisodeMediaProps) {
  const { t } = useT();
  const id = useId();
  const [chapters, setChapters] = useState<Chapter[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    setChapters([]);
    fetch(`/podcast/chapters/${episodeId}`, { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<{ chapters?: Chapter[] }>) : { chapters: [] }))
      .then((document) => setChapters(Array.isArray(document.chapters) ? document.chapters : []))
      .catch(() => setChapters([]));
    return () => controller.abort();
  }, [episodeId]);

  if (chapters.length === 0) return null;
  // The chapter playing is the last one that has started.
  let current = -1;
  chapters.forEach((chapter, index) => {
    if (currentTime >= chapter.startTime) current = index;
  });
  return (
    <section className="episode-chapters" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="episode-chapters__title">
        {t("player.chapters")}
      </h2>
      <ol className="episode-chapters__list">
        {chapters.map((chapter, index) => (
          <li key={`${chapter.startTime}-${index}`} className={index === current ? "episode-chapters__item is-current" : "episode-chapters__item"}>
            <button type="button" onClick={() => onSeek(chapter.startTime)} aria-current={index === current ? "true" : undefined}>
              <span className="episode-chapters__time">{clock(chapter.startTime)}</span> <span>{chapter.title}</span>
            </button>
            {chapter.url && (
              <a href={chapter.url} target="_blank" rel="noopener noreferrer nofollow" className="caption">
                {t("player.chapterLink")}
              </a>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
