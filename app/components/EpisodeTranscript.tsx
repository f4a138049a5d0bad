import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useT } from "~/i18n/translate";
import { parseTranscript, type Cue } from "~/utils/transcript";

export interface EpisodeMediaProps {
  episodeId: number;
  /** The player's position in seconds. */
  currentTime: number;
  /** Asks the player to jump to this many seconds. */
  onSeek: (seconds: number) => void;
}

function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hh ? 2 : 1, "0");
  return `${hh ? `${hh}:` : ""}${mm}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * An episode's transcript beside its player: the cue being spoken is
 * highlighted and kept in view, a click on a cue seeks there, and a search
 * box filters the cues. Renders nothing when the episode has no transcript.
 */
export function EpisodeTranscript({ episodeId, currentTime, onSeek }: EpisodeMediaProps) {
  const { t } = useT();
  const id = useId();
  const [cues, setCues] = useState<Cue[] | null>(null);
  const [query, setQuery] = useState("");
  const [follow, setFollow] = useState(true);
  const active = useRef<HTMLLIElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    setCues(null);
    fetch(`/podcast/transcript/${episodeId}`, { signal: controller.signal })
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
      .then((text) => setCues(parseTranscript(text).cues))
      .catch(() => setCues([]));
    return () => controller.abort();
  }, [episodeId]);

  const current = useMemo(() => (cues ?? []).findIndex((cue) => currentTime >= cue.start && currentTime < cue.end), [cues, currentTime]);
  const needle = query.trim().toLocaleLowerCase();
  const shown = (cues ?? []).map((cue, index) => ({ cue, index })).filter(({ cue }) => !needle || cue.text.toLocaleLowerCase().includes(needle));

  useEffect(() => {
    if (follow && !needle) active.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [current, follow, needle]);

  if (!cues || cues.length === 0) return null;
  return (
    <section className="episode-transcript" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="episode-transcript__title">
        {t("player.transcript")}
      </h2>
      <div className="episode-transcript__tools">
        <label htmlFor={`${id}-search`} className="visually-hidden">
          {t("player.searchTranscript")}
        </label>
        <input
          id={`${id}-search`}
          type="search"
          placeholder={t("player.searchTranscript")}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          className="episode-transcript__search"
        />
        {/* A 44 px chip: the (invisible) checkbox covers all of it. */}
        <label className="caption check-chip">
          <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.currentTarget.checked)} /> {t("player.followAudio")}
        </label>
      </div>
      {needle && (
        <p className="caption" role="status">
          {t("player.linesMatch", { shown: shown.length, total: cues.length })}
        </p>
      )}
      <ol className="episode-transcript__cues">
        {shown.map(({ cue, index }) => (
          <li
            key={index}
            ref={index === current ? active : undefined}
            className={index === current ? "episode-transcript__cue is-current" : "episode-transcript__cue"}
          >
            <button type="button" onClick={() => onSeek(cue.start)} aria-current={index === current ? "true" : undefined}>
              <span className="episode-transcript__time">{clock(cue.start)}</span> <span>{cue.text}</span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
