import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useRealtime } from "~/hooks/useRealtime";
import { useT } from "~/i18n/translate";
import { timeIn, useListenerTimeZone } from "~/utils/airing-format";

export interface RecentSong {
  id: string;
  playedAt: string;
  artist: string;
  title: string;
}

/**
 * The last songs played, newest first. A new song arrives with its
 * `history:changed` message, so thousands of open pages add it without
 * asking the server again.
 */
export function RecentSongs({ songs: initial, stationTimeZone, count = 10 }: { songs: RecentSong[]; stationTimeZone: string; count?: number }) {
  const { t, locale } = useT();
  const [songs, setSongs] = useState(initial);
  const [zone] = useListenerTimeZone(stationTimeZone, null);
  useEffect(() => setSongs(initial), [initial]);
  useRealtime<{ action: string; records: RecentSong[] }>("history:changed", (change) => {
    if (change.action !== "created") return;
    setSongs((current) => {
      const fresh = change.records.filter((song) => !current.some((known) => known.id === song.id));
      return [...fresh, ...current].sort((a, b) => Date.parse(b.playedAt) - Date.parse(a.playedAt)).slice(0, count);
    });
  });
  return (
    <section className="section recent-songs" aria-labelledby="recent-songs-title">
      <div className="section-head">
        <h2 id="recent-songs-title" className="section-title">
          {t("listen.recentlyPlayed")}
        </h2>
        <Link to="/history" className="button button--ghost">
          {t("listen.songHistory")}
        </Link>
      </div>
      {songs.length === 0 ? (
        <p className="empty-state">{t("listen.noSongs")}</p>
      ) : (
        <ol className="song-list" aria-live="polite">
          {songs.map((song) => (
            <li key={song.id} className="song-list__item">
              <time className="song-list__time" dateTime={song.playedAt}>
                {timeIn(song.playedAt, zone, locale)}
              </time>
              <span className="song-list__title">{song.title}</span>
              {song.artist && <span className="song-list__artist">{song.artist}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
