import { Link } from "@remix-run/react";
import { timeIn, useListenerTimeZone } from "~/utils/airing-format";

interface OnAirAiring {
  slug: string;
  name: string;
  colour: string;
  artwork: string | null;
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
// Kept current by the player bar (useOnAirRefresh in the root layout): schedule changes and the
// end of the airing re-run every loader, this page's too.
export function OnAirNow({ now, next, stationTimeZone }: OnAirNowProps) {
  const [zone] = useListenerTimeZone(stationTimeZone, null);
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
                {now.artwork && <img className="on-air__art" src={now.artwork} alt="" width={64} height={64} />}
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
