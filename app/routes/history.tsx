import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useLiveData } from "~/hooks/useRealtime";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { decodeCursor, listSongHistory, type Song } from "~/models/song-history.server";
import { getStationIdentity } from "~/models/station.server";
import { getConfig } from "~/services/config.server";
import { timeIn, useListenerTimeZone, zoneAbbreviation } from "~/utils/airing-format";
import { withSiteMeta } from "~/utils/meta";
import { dayKeyAt } from "~/utils/schedule-time";
import { fromDateTimeLocal } from "~/utils/time-zone";
import { dayLabel } from "~/utils/weekdays";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const title = metaTranslator(matches).t("schedule.historyTitle");
  return withSiteMeta(matches, [{ title: data ? `${title} · ${data.stationName}` : title }]);
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const stationTimeZone = getConfig().stationTimezone;
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const atText = url.searchParams.get("at") ?? "";
  const at = atText ? fromDateTimeLocal(atText, stationTimeZone) : null;
  const cursor = decodeCursor(url.searchParams.get("before"));
  const page = await listSongHistory({ cursor, at, q });
  return {
    stationName: getStationIdentity().name,
    stationTimeZone,
    q,
    at: at ? atText : "",
    atError: Boolean(atText && !at),
    paged: Boolean(cursor || at),
    ...page,
  };
}

export default function History() {
  const { songs, nextCursor, q, at, atError, paged, stationTimeZone } = useLoaderData<typeof loader>();
  // Only the first page follows new songs; a listener paging back keeps their place.
  useLiveData(...(paged ? [] : (["history:changed"] as const)));
  const [zone] = useListenerTimeZone(stationTimeZone, null);
  const { t, locale } = useT();
  const days: { key: string; songs: Song[] }[] = [];
  for (const song of songs) {
    const key = dayKeyAt(new Date(song.playedAt), zone);
    if (days.at(-1)?.key !== key) days.push({ key, songs: [] });
    days.at(-1)!.songs.push(song);
  }
  const older = nextCursor ? `?${new URLSearchParams({ before: nextCursor, ...(q ? { q } : {}) })}` : null;
  return (
    <div className="container history-page">
      <h1 className="page-title">{t("schedule.historyTitle")}</h1>
      <p className="muted">{t("schedule.historyIntro", { zone, abbreviation: zoneAbbreviation(new Date(), zone, locale) })}</p>
      <Form method="get" className="history-search" role="search">
        <div>
          <label htmlFor="history-q">{t("schedule.titleOrArtist")}</label>
          <input id="history-q" type="search" name="q" defaultValue={q} maxLength={100} />
        </div>
        <div>
          <label htmlFor="history-at">{t("schedule.playedAtOrBefore", { zone: stationTimeZone })}</label>
          <input id="history-at" type="datetime-local" name="at" defaultValue={at} aria-invalid={atError ? true : undefined} />
          {atError && <p className="form-error">{t("schedule.notADateTime")}</p>}
        </div>
        <button type="submit" className="button">
          {t("schedule.search")}
        </button>
      </Form>
      {songs.length === 0 ? (
        <p className="empty-state">{q ? t("schedule.noSongsMatching", { q }) : t("schedule.noSongs")}</p>
      ) : (
        days.map((day) => (
          <section key={day.key} className="history-day" aria-labelledby={`history-${day.key}`}>
            <h2 id={`history-${day.key}`} className="schedule-day__title">
              {dayLabel(new Date(`${day.key}T12:00:00Z`), "UTC", locale)}
            </h2>
            <ol className="song-list">
              {day.songs.map((song) => (
                <li key={song.id} className="song-list__item">
                  <time className="song-list__time" dateTime={song.playedAt}>
                    {timeIn(song.playedAt, zone, locale)}
                  </time>
                  <span className="song-list__title">{song.title}</span>
                  {song.artist && <span className="song-list__artist">{song.artist}</span>}
                  {song.show && (
                    <span className="song-list__show">{song.show.slug ? <Link to={`/shows/${song.show.slug}`}>{song.show.name}</Link> : song.show.name}</span>
                  )}
                </li>
              ))}
            </ol>
          </section>
        ))
      )}
      <nav className="schedule-page__weeks" aria-label={t("schedule.pages")}>
        {paged && (
          <Link to={q ? `?${new URLSearchParams({ q })}` : "/history"} className="button button--ghost">
            {t("schedule.newest")}
          </Link>
        )}
        {older && (
          <Link to={older} className="button button--ghost" rel="next">
            {t("schedule.olderSongs")}
          </Link>
        )}
      </nav>
    </div>
  );
}
