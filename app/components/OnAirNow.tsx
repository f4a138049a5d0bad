import "~/styles/schedule.css";
import { Link, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useListenerTimeZone } from "~/hooks/useListenerTimeZone";
import { useLiveData } from "~/hooks/useRealtime";
import { timeIn } from "~/utils/airing-format";

interface OnAirAiring {
  slug: string;
  name: string;
  colour: string;
  hosts: { id: string; name: string }[];
  start: string;
  end: string;
}

export interface OnAirNowProps {
  now: OnAirAiring | null;
  next: OnAirAiring | null;
  stationTimeZone: string;
}

function Hosts({ hosts }: { hosts: OnAirAiring["hosts"] }) {
  if (hosts.length === 0) return null;
  return <span className="on-air__hosts">with {hosts.map((host) => host.name).join(", ")}</span>;
}

/** "On now" (show, hosts, until when) and "up next", kept current by the schedule's realtime changes. */
export function OnAirNow({ now, next, stationTimeZone }: OnAirNowProps) {
  const [zone] = useListenerTimeZone(stationTimeZone, null);
  const revalidator = useRevalidator();
  useLiveData("schedule:changed");
  // When the current airing ends (or the next starts), ask the server again.
  const changeAt = Math.min(now ? Date.parse(now.end) : Infinity, next ? Date.parse(next.start) : Infinity);
  useEffect(() => {
    if (!Number.isFinite(changeAt)) return;
    const timer = window.setTimeout(() => revalidator.revalidate(), Math.min(Math.max(changeAt - Date.now() + 1000, 1000), 2_000_000_000));
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [changeAt]);
  return (
    <section className="on-air" aria-labelledby="on-air-title">
      <h2 id="on-air-title" className="section-title">
        ON AIR
      </h2>
      <dl className="on-air__list">
        <div className="on-air__item on-air__item--now" style={now ? { borderColor: now.colour } : undefined}>
          <dt>On now</dt>
          <dd>
            {now ? (
              <>
                <Link to={`/shows/${now.slug}`} className="on-air__show">
                  {now.name}
                </Link>{" "}
                <Hosts hosts={now.hosts} />{" "}
                <span className="on-air__until">
                  until <time dateTime={now.end}>{timeIn(now.end, zone)}</time>
                </span>
              </>
            ) : (
              <span className="muted">No show on air right now: music all the way.</span>
            )}
          </dd>
        </div>
        <div className="on-air__item">
          <dt>Up next</dt>
          <dd>
            {next ? (
              <>
                <Link to={`/shows/${next.slug}`} className="on-air__show">
                  {next.name}
                </Link>{" "}
                <Hosts hosts={next.hosts} />{" "}
                <span className="on-air__until">
                  at <time dateTime={next.start}>{timeIn(next.start, zone)}</time>
                </span>
              </>
            ) : (
              <span className="muted">Nothing scheduled yet.</span>
            )}
          </dd>
        </div>
      </dl>
      <Link to="/schedule" className="button button--ghost">
        FULL SCHEDULE
      </Link>
    </section>
  );
}
