import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import uplotStyles from "uplot/dist/uPlot.min.css";
import { AudienceChart } from "~/components/admin/AudienceChart";
import { EmptyState } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { audienceScopeFor, DEFAULT_DAYS, getAudienceFigures, readAudienceRange, type Breakdown } from "~/models/audience-figures.server";
import { requireStaff } from "~/services/admin-session.server";
import { getConfig } from "~/services/config.server";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("audience.title") }, { name: "robots", content: "noindex" }];
// The chart library's own few rules, on this page only.
export const links: LinksFunction = () => [{ rel: "stylesheet", href: uplotStyles }];

const DAY_MS = 24 * 3600_000;

function stationDay(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireStaff(request, "shows");
  const url = new URL(request.url);
  const timeZone = getConfig().stationTimezone;
  const now = new Date();
  // A malformed period shows the default one, and says so.
  const asked = readAudienceRange(url.searchParams, now);
  const range = asked ?? { from: new Date(now.getTime() - DEFAULT_DAYS * DAY_MS), to: now };
  const figures = await getAudienceFigures(range, await audienceScopeFor(actor), now);
  const query = `from=${stationDay(range.from, timeZone)}&to=${stationDay(new Date(range.to.getTime() - 1), timeZone)}`;
  // The screen shows each show's airings summed up: a year has about a thousand of them, which the
  // page need not carry (the JSON and CSV list each one).
  const shows = figures.shows.map(({ airings, ...show }) => ({
    ...show,
    airingCount: airings.length,
    tlhHours: airings.reduce((sum, airing) => sum + airing.tlhHours, 0),
    aqh: airings.length > 0 ? airings.reduce((sum, airing) => sum + airing.aqh, 0) / airings.length : 0,
  }));
  return {
    figures: { ...figures, shows },
    timeZone,
    rangeInvalid: asked === null,
    fromDay: stationDay(range.from, timeZone),
    toDay: stationDay(new Date(range.to.getTime() - 1), timeZone),
    jsonUrl: `/audience.json?${query}`,
    csvUrl: `/audience.csv?${query}`,
  };
}

/**
 * A wide table's scrolling box on a phone: reachable by keyboard (arrow keys scroll it) and named
 * for screen readers, as WCAG 2.1.1 asks of a scrollable region.
 */
function scrollRegion(label: string) {
  return { role: "region", "aria-label": label, tabIndex: 0 } as const;
}

function BreakdownTable({ caption, rows, nameOf }: { caption: string; rows: Breakdown[]; nameOf: (name: string) => string }) {
  const { t, locale } = useT();
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  return (
    <table className="audience-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t("audience.name")}</th>
          <th scope="col">{t("audience.sessions")}</th>
          <th scope="col">{t("audience.tlh")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={3}>{t("audience.noData")}</td>
          </tr>
        ) : (
          rows.slice(0, 10).map((row) => (
            <tr key={row.name}>
              <th scope="row">{nameOf(row.name)}</th>
              <td>{number.format(row.sessions)}</td>
              <td>{number.format(row.tlhHours)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

export default function AudienceAdmin() {
  const { figures, timeZone, rangeInvalid, fromDay, toDay, jsonUrl, csvUrl } = useLoaderData<typeof loader>();
  const { t, locale } = useT();
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const when = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
  const { now, period } = figures;
  const weekdayName = useMemo(() => {
    const format = new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: "UTC" });
    // 1970-01-04 was a Sunday (weekday 0).
    return (weekday: number) => format.format(new Date(Date.UTC(1970, 0, 4 + weekday)));
  }, [locale]);
  // All 168 hours of the week on the axis, Sunday 00 first: a period shorter than a week lacks some,
  // and they stay gaps in place instead of shifting every later hour to the left.
  const hourLabels = useMemo(
    () => Array.from({ length: 168 }, (_, index) => `${weekdayName(Math.floor(index / 24))} ${String(index % 24).padStart(2, "0")}`),
    [weekdayName],
  );
  const hourSeries = useMemo(() => {
    const listeners = new Map(period.byHourOfWeek.map((slot) => [slot.weekday * 24 + slot.hour, slot.listeners]));
    return [{ label: t("audience.listeners"), values: hourLabels.map((_, index) => listeners.get(index) ?? null) }];
  }, [period, hourLabels, t]);
  const trendWeeks = useMemo(() => [...new Set(figures.shows.flatMap((show) => show.weeks.map((week) => week.week)))].sort(), [figures.shows]);
  // Each week by its first day, short ("9 Nov"): a full date per tick overlaps on a phone.
  const trendLabels = useMemo(() => {
    const format = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
    return trendWeeks.map((week) => format.format(new Date(`${week}T00:00:00Z`)));
  }, [trendWeeks, locale]);
  const trendSeries = useMemo(
    () =>
      figures.shows
        .filter((show) => show.weeks.length > 0)
        .slice(0, 6)
        .map((show) => ({ label: show.name, values: trendWeeks.map((week) => show.weeks.find((entry) => entry.week === week)?.aqh ?? 0) })),
    [figures.shows, trendWeeks],
  );
  const deviceName = (name: string) =>
    ({
      phone: t("audience.devicePhone"),
      tablet: t("audience.deviceTablet"),
      desktop: t("audience.deviceDesktop"),
      speaker: t("audience.deviceSpeaker"),
      watch: t("audience.deviceWatch"),
      tv: t("audience.deviceTv"),
      car: t("audience.deviceCar"),
    })[name] ?? t("audience.deviceOther");
  const countryNames = useMemo(() => new Intl.DisplayNames([locale], { type: "region" }), [locale]);
  const countryName = (code: string) => (code ? (countryNames.of(code) ?? code) : t("audience.unknown"));
  const figure = (label: string, value: string) => (
    <div className="audience-figure">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
  return (
    <AdminPage title={t("audience.heading")} intro={t("audience.intro")}>
      <AdminSection id="audience-now-title" title={t("audience.now")}>
        <dl className="audience-figures">
          {figure(t("audience.icecastListeners"), now.icecastListeners === null ? "–" : number.format(now.icecastListeners))}
          {figure(t("audience.webPlayerListeners"), number.format(now.webPlayerListeners))}
          {figure(t("audience.icecastListeningTime"), t("audience.minutes", { minutes: number.format(now.icecastListeningSeconds / 60) }))}
          {figure(t("audience.webPlayerListeningTime"), t("audience.minutes", { minutes: number.format(now.webPlayerListeningSeconds / 60) }))}
        </dl>
        <h3 className="audience-subtitle">{t("audience.topEpisodesNow")}</h3>
        {now.topEpisodes.length === 0 ? (
          <p className="muted">{t("audience.noEpisodesNow")}</p>
        ) : (
          <ol className="audience-ranking">
            {now.topEpisodes.map((episode) => (
              <li key={episode.episodeId}>
                {episode.title} · {t("audience.listenersCount", { count: episode.listeners })}
              </li>
            ))}
          </ol>
        )}
      </AdminSection>

      <AdminSection id="audience-period-title" title={t("audience.period")} description={t("audience.periodIntro")}>
        <Form method="get" className="audience-range">
          <label className="admin-field">
            <span className="admin-label">{t("audience.from")}</span>
            <input className="admin-input" type="date" name="from" defaultValue={fromDay} required />
          </label>
          <label className="admin-field">
            <span className="admin-label">{t("audience.to")}</span>
            <input className="admin-input" type="date" name="to" defaultValue={toDay} required />
          </label>
          <button type="submit" className="button">
            {t("audience.show")}
          </button>
        </Form>
        {rangeInvalid && (
          <p className="admin-status admin-status--error" role="alert">
            {t("audience.rangeInvalid")}
          </p>
        )}
        <p className="audience-downloads">
          <a href={jsonUrl}>{t("audience.downloadJson")}</a> · <a href={csvUrl}>{t("audience.downloadCsv")}</a>
        </p>
        <p className="muted">
          {figures.measuredUntil
            ? t("audience.measuredUntil", {
                when: when.format(new Date(figures.measuredUntil)),
                source: figures.source === "icecast" ? "Icecast" : t("audience.webPlayer"),
              })
            : t("audience.notMeasuredYet")}
        </p>
        <dl className="audience-figures">
          {figure(t("audience.sessions"), number.format(period.sessions))}
          {figure(t("audience.uniques"), number.format(period.uniques))}
          {figure(t("audience.tlh"), number.format(period.tlhHours))}
          {figure(t("audience.atsl"), t("audience.minutes", { minutes: number.format(period.atslMinutes) }))}
          {figure(t("audience.aqh"), number.format(period.aqh))}
          {figure(t("audience.peak"), number.format(period.peakConcurrent))}
        </dl>
        <h3 className="audience-subtitle">{t("audience.byHourOfWeek")}</h3>
        <AudienceChart labels={hourLabels} series={hourSeries} label={t("audience.byHourOfWeekChart")} />
        <div className="audience-breakdowns">
          <BreakdownTable caption={t("audience.apps")} rows={period.apps} nameOf={(name) => name} />
          <BreakdownTable caption={t("audience.devices")} rows={period.devices} nameOf={deviceName} />
          <BreakdownTable caption={t("audience.countries")} rows={period.countries} nameOf={countryName} />
        </div>
      </AdminSection>

      <AdminSection id="audience-shows-title" title={t("audience.shows")} description={t("audience.showsIntro")}>
        {figures.shows.length === 0 ? (
          <EmptyState icon="calendar">{t("audience.noShows")}</EmptyState>
        ) : (
          <>
            {trendSeries.length > 0 && <AudienceChart labels={trendLabels} series={trendSeries} label={t("audience.showTrendChart")} />}
            <div className="audience-scroll" {...scrollRegion(t("audience.showsTable"))}>
              <table className="audience-table">
                <caption>{t("audience.showsTable")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("audience.show")}</th>
                    <th scope="col">{t("audience.airings")}</th>
                    <th scope="col">{t("audience.aqh")}</th>
                    <th scope="col">{t("audience.tlh")}</th>
                    <th scope="col">{t("audience.downloads")}</th>
                  </tr>
                </thead>
                <tbody>
                  {figures.shows.map((show) => (
                    <tr key={show.showId}>
                      <th scope="row">{show.name}</th>
                      <td>{number.format(show.airingCount)}</td>
                      <td>{number.format(show.aqh)}</td>
                      <td>{number.format(show.tlhHours)}</td>
                      <td>{number.format(show.downloads)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </AdminSection>

      <AdminSection id="audience-songs-title" title={t("audience.songs")} description={t("audience.songsIntro")} collapsible defaultOpen={false}>
        {figures.songs.length === 0 ? (
          <p className="muted">{t("audience.noData")}</p>
        ) : (
          <div className="audience-scroll" {...scrollRegion(t("audience.songsTable"))}>
            <table className="audience-table">
              <caption>{t("audience.songsTable")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("audience.time")}</th>
                  <th scope="col">{t("audience.song")}</th>
                  <th scope="col">{t("audience.atStart")}</th>
                  <th scope="col">{t("audience.atEnd")}</th>
                </tr>
              </thead>
              <tbody>
                {figures.songs.map((song) => (
                  <tr key={song.at}>
                    <td>{when.format(new Date(song.at))}</td>
                    <th scope="row">{song.artist ? `${song.artist} – ${song.title}` : song.title}</th>
                    <td>{number.format(song.listenersAtStart)}</td>
                    <td>{number.format(song.listenersAtEnd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </AdminSection>

      <AdminSection id="audience-episodes-title" title={t("audience.episodes")} description={t("audience.episodesIntro")}>
        {figures.episodes.length === 0 ? (
          <p className="muted">{t("audience.noData")}</p>
        ) : (
          <div className="audience-scroll" {...scrollRegion(t("audience.episodesTable"))}>
            <table className="audience-table">
              <caption>{t("audience.episodesTable")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("audience.episode")}</th>
                  <th scope="col">{t("audience.first7Days")}</th>
                  <th scope="col">{t("audience.first30Days")}</th>
                  <th scope="col">{t("audience.first90Days")}</th>
                  <th scope="col">{t("audience.downloadsInPeriod")}</th>
                  <th scope="col">{t("audience.webPlays")}</th>
                </tr>
              </thead>
              <tbody>
                {figures.episodes.map((episode) => (
                  <tr key={episode.episodeId}>
                    <th scope="row">{episode.title}</th>
                    <td>{number.format(episode.downloads7Days)}</td>
                    <td>{number.format(episode.downloads30Days)}</td>
                    <td>{number.format(episode.downloads90Days)}</td>
                    <td>{number.format(episode.downloadsInPeriod)}</td>
                    <td>{number.format(episode.webPlaysInPeriod)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </AdminSection>
    </AdminPage>
  );
}
