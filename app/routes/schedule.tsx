import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useLiveData } from "~/hooks/useRealtime";
import { metaTranslator } from "~/i18n/meta";
import { Message } from "~/i18n/Message";
import { useT } from "~/i18n/translate";
import { listAirings } from "~/models/schedule.server";
import { getStationIdentity } from "~/models/station.server";
import { getConfig } from "~/services/config.server";
import { siteOrigin } from "~/models/site-origin.server";
import { timeIn, useListenerTimeZone, zoneAbbreviation } from "~/utils/airing-format";
import { withSiteMeta } from "~/utils/meta";
import { dayKeyAt, isTimeZone, timeZoneNames } from "~/utils/schedule-time";
import { instantOfWallTime, wallTimeAt } from "~/utils/time-zone";
import { dayLabel } from "~/utils/weekdays";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MAX_WEEKS = 104;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const title = metaTranslator(matches).t("schedule.title");
  return withSiteMeta(matches, [{ title: data ? `${title} · ${data.stationName}` : title }]);
};

/** ?week=N: weeks from this one (negative: earlier), within two years either way. */
function weekOffset(value: string | null): number {
  const week = /^-?\d{1,3}$/.test(value ?? "") ? Number(value) : 0;
  return Math.max(-MAX_WEEKS, Math.min(MAX_WEEKS, week));
}

/** One airing on the week view; its show's name, colour, artwork and hosts are sent once per show. */
interface WeekAiring {
  key: string;
  slug: string;
  start: string;
  end: string;
  moved: boolean;
  special: boolean;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const week = weekOffset(url.searchParams.get("week"));
  const stationTimeZone = getConfig().stationTimezone;
  const requested = url.searchParams.get("tz");
  const now = new Date();
  const weekStart = now.getTime() + week * 7 * DAY_MS;
  // The listener's "today" began less than a day ago in any zone and their seventh day ends
  // within a week; an hour either side covers a DST change. Only that window is expanded and sent.
  const airings = await listAirings(new Date(weekStart - DAY_MS - HOUR_MS), new Date(weekStart + 7 * DAY_MS + HOUR_MS));
  const shows: Record<string, { name: string; colour: string; artwork: string | null; hosts: string }> = {};
  const inWeek: WeekAiring[] = [];
  for (const airing of airings) {
    shows[airing.slug] ??= { name: airing.name, colour: airing.colour, artwork: airing.artwork, hosts: airing.hosts.map((host) => host.name).join(", ") };
    inWeek.push({
      key: `${airing.slotId}-${airing.originalStart}`,
      slug: airing.slug,
      start: airing.start.toISOString(),
      end: airing.end.toISOString(),
      moved: airing.moved,
      special: airing.special,
    });
  }
  return {
    stationName: getStationIdentity().name,
    stationTimeZone,
    zoneFromUrl: requested && isTimeZone(requested) ? requested : null,
    // One string, not ~420: the page data is serialized value by value on every request.
    zones: timeZoneNames().join(" "),
    week,
    now: now.toISOString(),
    shows,
    airings: inWeek,
    calendarUrl: `${await siteOrigin(request.url)}/schedule.ics`,
  };
}

/** The seven days (YYYY-MM-DD in `zone`) of the week `week` weeks from today, today first. */
function weekDays(now: Date, week: number, zone: string): string[] {
  const today = wallTimeAt(now, zone);
  const noon = instantOfWallTime({ ...today, hour: 12, minute: 0, second: 0 }, zone).getTime();
  return Array.from({ length: 7 }, (_, i) => dayKeyAt(new Date(noon + (week * 7 + i) * DAY_MS), zone));
}

export default function Schedule() {
  const data = useLoaderData<typeof loader>();
  const { t, locale } = useT();
  const [searchParams] = useSearchParams();
  useLiveData("schedule:changed");
  const [zone, chooseZone] = useListenerTimeZone(data.zoneFromUrl ?? data.stationTimeZone, data.zoneFromUrl);
  const [now, setNow] = useState(() => new Date(data.now));
  useEffect(() => {
    setNow(new Date());
    const timer = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(timer);
  }, [data.now]);

  const zones = data.zones.split(" ");
  const days = weekDays(now, data.week, zone);
  const byDay = new Map<string, WeekAiring[]>(days.map((day) => [day, []]));
  for (const airing of data.airings) {
    const startDay = dayKeyAt(new Date(airing.start), zone);
    // A night show that began before the first day shown and runs into it (on air now, just
    // after the listener's midnight) is listed first on that day, not left out of the week.
    const runsIntoFirstDay = startDay < days[0] && dayKeyAt(new Date(Date.parse(airing.end) - 1), zone) >= days[0];
    byDay.get(runsIntoFirstDay ? days[0] : startDay)?.push(airing);
  }
  const todayKey = dayKeyAt(now, zone);
  const zoneParam = searchParams.get("tz");
  const weekLink = (week: number) => `?${new URLSearchParams({ ...(week ? { week: String(week) } : {}), ...(zoneParam ? { tz: zoneParam } : {}) })}`;
  const sameZone =
    zoneAbbreviation(now, zone, locale) === zoneAbbreviation(now, data.stationTimeZone, locale) &&
    timeIn(now, zone, locale) === timeIn(now, data.stationTimeZone, locale);

  return (
    <div className="container schedule-page">
      <header className="schedule-page__head">
        <h1 className="page-title">{t("schedule.title")}</h1>
        <p className="muted">
          <Message
            id="schedule.timesIn"
            values={{ zone, abbreviation: zoneAbbreviation(now, zone, locale), stationZone: data.stationTimeZone }}
            components={{ 0: <strong data-testid="listener-zone" /> }}
          />
        </p>
        <Form
          method="get"
          className="zone-picker"
          // The choice is remembered in this browser; the button then does what it does without
          // JavaScript (the zone in the address, so the page can be shared or bookmarked as shown).
          onSubmit={(event) => chooseZone(new FormData(event.currentTarget).get("tz") as string)}
        >
          {data.week !== 0 && <input type="hidden" name="week" value={data.week} />}
          <label htmlFor="zone-picker">{t("schedule.timeZone")}</label>
          <select id="zone-picker" name="tz" value={zone} onChange={(event) => chooseZone(event.currentTarget.value)}>
            {(zones.includes(zone) ? zones : [zone, ...zones]).map((name) => (
              <option key={name} value={name}>
                {name.replace(/_/g, " ")}
              </option>
            ))}
          </select>
          <button type="submit" className="button button--ghost">
            {t("schedule.showTimes")}
          </button>
        </Form>
        <nav className="schedule-page__weeks" aria-label={t("schedule.weeks")}>
          <Link to={weekLink(data.week - 1)} className="button button--ghost" rel="prev">
            {t("schedule.previousWeek")}
          </Link>
          {data.week !== 0 && (
            <Link to={weekLink(0)} className="button button--ghost">
              {t("schedule.thisWeek")}
            </Link>
          )}
          <Link to={weekLink(data.week + 1)} className="button button--ghost" rel="next">
            {t("schedule.nextWeek")}
          </Link>
          <a href={data.calendarUrl} className="button button--ghost" download="schedule.ics">
            {t("schedule.addToCalendar")}
          </a>
          <a href={data.calendarUrl.replace(/^https?:/, "webcal:")} className="button button--ghost">
            {t("schedule.subscribe")}
          </a>
        </nav>
      </header>
      {days.map((day) => {
        const airings = byDay.get(day) ?? [];
        const noon = new Date(`${day}T12:00:00Z`);
        return (
          <section key={day} className="schedule-day" aria-labelledby={`day-${day}`}>
            <h2 id={`day-${day}`} className="schedule-day__title">
              {day === todayKey ? t("schedule.today", { day: dayLabel(noon, "UTC", locale) }) : dayLabel(noon, "UTC", locale)}
            </h2>
            {airings.length === 0 ? (
              <p className="muted">{t("schedule.noShows")}</p>
            ) : (
              <ol className="schedule-day__list">
                {airings.map((airing) => {
                  const show = data.shows[airing.slug];
                  const onNow = Date.parse(airing.start) <= now.getTime() && Date.parse(airing.end) > now.getTime();
                  return (
                    <li
                      key={airing.key}
                      className={`airing${onNow ? " airing--now" : ""}${show.artwork ? " airing--art" : ""}`}
                      style={{ borderColor: show.colour }}
                      data-start={airing.start}
                    >
                      {show.artwork && <img className="airing__art" src={show.artwork} alt="" width={48} height={48} loading="lazy" />}
                      <p className="airing__time">
                        <time dateTime={airing.start}>{timeIn(airing.start, zone, locale)}</time>–
                        <time dateTime={airing.end}>{timeIn(airing.end, zone, locale)}</time>
                        {!sameZone && (
                          <span className="airing__station-time">
                            {" "}
                            {t("schedule.stationTime", {
                              start: timeIn(airing.start, data.stationTimeZone, locale),
                              end: timeIn(airing.end, data.stationTimeZone, locale),
                              zone: zoneAbbreviation(airing.start, data.stationTimeZone, locale),
                            })}
                          </span>
                        )}
                        {onNow && <strong className="airing__badge">{t("schedule.onNow")}</strong>}
                        {airing.moved && <span className="airing__note">{t("schedule.moved")}</span>}
                        {airing.special && <span className="airing__note">{t("schedule.special")}</span>}
                      </p>
                      <p className="airing__show">
                        <Link to={`/shows/${airing.slug}`}>{show.name}</Link>
                        {show.hosts && <span className="airing__hosts"> {t("schedule.withHosts", { hosts: show.hosts })}</span>}
                      </p>
                    </li>
                  );
                })}
              </ol>
            )}
          </section>
        );
      })}
    </div>
  );
}
