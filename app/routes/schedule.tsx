import "~/styles/schedule.css";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useListenerTimeZone } from "~/hooks/useListenerTimeZone";
import { useLiveData } from "~/hooks/useRealtime";
import { listAirings, toPublicAiring, type PublicAiring } from "~/models/schedule.server";
import { getStationIdentity } from "~/models/station.server";
import { getConfig } from "~/services/config.server";
import { siteOrigin as publicBaseUrl } from "~/models/site-origin.server";
import { dayIn, timeIn, zoneAbbreviation } from "~/utils/airing-format";
import { withSiteMeta } from "~/utils/meta";
import { dayKeyAt, isTimeZone, timeZoneNames } from "~/utils/schedule-time";
import { instantOfWallTime, wallTimeAt } from "~/utils/time-zone";

const DAY_MS = 86_400_000;
const MAX_WEEKS = 104;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  withSiteMeta(matches, [{ title: data ? `SCHEDULE · ${data.stationName}` : "SCHEDULE" }]);

/** ?week=N: weeks from this one (negative: earlier), within two years either way. */
function weekOffset(value: string | null): number {
  const week = /^-?\d{1,3}$/.test(value ?? "") ? Number(value) : 0;
  return Math.max(-MAX_WEEKS, Math.min(MAX_WEEKS, week));
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const week = weekOffset(url.searchParams.get("week"));
  const stationTimeZone = getConfig().stationTimezone;
  const requested = url.searchParams.get("tz");
  const now = new Date();
  const weekStart = now.getTime() + week * 7 * DAY_MS;
  // Wide enough for any listener's zone: their days start up to 14 h away from UTC.
  const airings = await listAirings(new Date(weekStart - 2 * DAY_MS), new Date(weekStart + 9 * DAY_MS));
  return {
    stationName: getStationIdentity().name,
    stationTimeZone,
    zoneFromUrl: requested && isTimeZone(requested) ? requested : null,
    zones: timeZoneNames(),
    week,
    now: now.toISOString(),
    airings: airings.map(toPublicAiring),
    calendarUrl: `${publicBaseUrl(request)}/schedule.ics`,
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
  const [searchParams] = useSearchParams();
  useLiveData("schedule:changed");
  const [zone, chooseZone] = useListenerTimeZone(data.zoneFromUrl ?? data.stationTimeZone, data.zoneFromUrl);
  const [now, setNow] = useState(() => new Date(data.now));
  useEffect(() => {
    setNow(new Date());
    const timer = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(timer);
  }, [data.now]);

  const days = weekDays(now, data.week, zone);
  const byDay = new Map<string, PublicAiring[]>(days.map((day) => [day, []]));
  for (const airing of data.airings) byDay.get(dayKeyAt(new Date(airing.start), zone))?.push(airing);
  const todayKey = dayKeyAt(now, zone);
  const zoneParam = searchParams.get("tz");
  const weekLink = (week: number) => `?${new URLSearchParams({ ...(week ? { week: String(week) } : {}), ...(zoneParam ? { tz: zoneParam } : {}) })}`;
  const sameZone = zoneAbbreviation(now, zone) === zoneAbbreviation(now, data.stationTimeZone) && timeIn(now, zone) === timeIn(now, data.stationTimeZone);

  return (
    <div className="container schedule-page">
      <header className="schedule-page__head">
        <h1 className="page-title">SCHEDULE</h1>
        <p className="muted">
          Times in <strong data-testid="listener-zone">{zone}</strong> ({zoneAbbreviation(now, zone)}); station time ({data.stationTimeZone}) beside each show.
        </p>
        <Form
          method="get"
          className="zone-picker"
          onSubmit={(event) => {
            // With JavaScript the choice applies at once and is remembered in this browser.
            event.preventDefault();
            chooseZone(new FormData(event.currentTarget).get("tz") as string);
          }}
        >
          {data.week !== 0 && <input type="hidden" name="week" value={data.week} />}
          <label htmlFor="zone-picker">Time zone</label>
          <select id="zone-picker" name="tz" value={zone} onChange={(event) => chooseZone(event.currentTarget.value)}>
            {(data.zones.includes(zone) ? data.zones : [zone, ...data.zones]).map((name) => (
              <option key={name} value={name}>
                {name.replace(/_/g, " ")}
              </option>
            ))}
          </select>
          <button type="submit" className="button button--ghost">
            Show times
          </button>
        </Form>
        <nav className="schedule-page__weeks" aria-label="Weeks">
          <Link to={weekLink(data.week - 1)} className="button button--ghost" rel="prev">
            ← Previous week
          </Link>
          {data.week !== 0 && (
            <Link to={weekLink(0)} className="button button--ghost">
              This week
            </Link>
          )}
          <Link to={weekLink(data.week + 1)} className="button button--ghost" rel="next">
            Next week →
          </Link>
          <a href={data.calendarUrl} className="button button--ghost" download="schedule.ics">
            Add to calendar
          </a>
          <a href={data.calendarUrl.replace(/^https?:/, "webcal:")} className="button button--ghost">
            Subscribe
          </a>
        </nav>
      </header>
      {days.map((day) => {
        const airings = byDay.get(day) ?? [];
        const noon = new Date(`${day}T12:00:00Z`);
        return (
          <section key={day} className="schedule-day" aria-labelledby={`day-${day}`}>
            <h2 id={`day-${day}`} className="schedule-day__title">
              {day === todayKey ? "Today · " : ""}
              {dayIn(noon, "UTC")}
            </h2>
            {airings.length === 0 ? (
              <p className="muted">No shows scheduled.</p>
            ) : (
              <ol className="schedule-day__list">
                {airings.map((airing) => {
                  const onNow = Date.parse(airing.start) <= now.getTime() && Date.parse(airing.end) > now.getTime();
                  return (
                    <li
                      key={`${airing.slotId}-${airing.originalStart}`}
                      className={`airing${onNow ? " airing--now" : ""}`}
                      style={{ borderColor: airing.colour }}
                      data-start={airing.start}
                    >
                      <p className="airing__time">
                        <time dateTime={airing.start}>{timeIn(airing.start, zone)}</time>–<time dateTime={airing.end}>{timeIn(airing.end, zone)}</time>
                        {!sameZone && (
                          <span className="airing__station-time">
                            {" "}
                            (station {timeIn(airing.start, data.stationTimeZone)}–{timeIn(airing.end, data.stationTimeZone)}{" "}
                            {zoneAbbreviation(airing.start, data.stationTimeZone)})
                          </span>
                        )}
                        {onNow && <strong className="airing__badge">ON NOW</strong>}
                        {airing.moved && <span className="airing__note">moved</span>}
                        {airing.special && <span className="airing__note">special</span>}
                      </p>
                      <p className="airing__show">
                        <Link to={`/shows/${airing.slug}`}>{airing.name}</Link>
                        {airing.hosts.length > 0 && <span className="airing__hosts"> with {airing.hosts.map((host) => host.name).join(", ")}</span>}
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
