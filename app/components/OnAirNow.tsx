import { Link } from "@remix-run/react";
import { Message } from "~/i18n/Message";
import { useT } from "~/i18n/translate";
import { dayUnlessToday, timeIn, useListenerTimeZone } from "~/utils/airing-format";

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
  const { t } = useT();
  if (hosts.length === 0) return null;
  return <span className="on-air__hosts">{t("listen.withHosts", { hosts: hosts.map((host) => host.name).join(", ") })}</span>;
}

/** "On now" (show, hosts, until when) and "up next", kept current by the schedule's realtime changes. */
// Kept current by the player bar (useOnAirRefresh in the root layout): schedule changes and the
// end of the airing re-run every loader, this page's too.
export function OnAirNow({ now, next, stationTimeZone }: OnAirNowProps) {
  const { t, locale } = useT();
  const [zone] = useListenerTimeZone(stationTimeZone, null);
  return (
    <section className="on-air" aria-labelledby="on-air-title">
      <h2 id="on-air-title" className="section-title">
        {t("listen.onAir")}
      </h2>
      <dl className="on-air__list">
        <div className="on-air__item on-air__item--now" style={now ? { borderColor: now.colour } : undefined}>
          <dt>{t("listen.onNow")}</dt>
          <dd>
            {now ? (
              <>
                {now.artwork && <img className="on-air__art" src={now.artwork} alt="" width={64} height={64} />}
                <Link to={`/shows/${now.slug}`} className="on-air__show">
                  {now.name}
                </Link>{" "}
                <Hosts hosts={now.hosts} />{" "}
                <span className="on-air__until">
                  <Message id="listen.until" values={{ time: timeIn(now.end, zone, locale) }} components={{ 0: <time dateTime={now.end} /> }} />
                </span>
              </>
            ) : (
              <span className="muted">{t("listen.noShow")}</span>
            )}
          </dd>
        </div>
        <div className="on-air__item">
          <dt>{t("listen.upNext")}</dt>
          <dd>
            {next ? (
              <>
                <Link to={`/shows/${next.slug}`} className="on-air__show">
                  {next.name}
                </Link>{" "}
                <Hosts hosts={next.hosts} />{" "}
                <span className="on-air__until">
                  {/* Days away (nothing more today): the day, not a time that reads as today's. */}
                  <Message
                    id={dayUnlessToday(next.start, zone, locale) ? "listen.atDay" : "listen.at"}
                    values={{ day: dayUnlessToday(next.start, zone, locale) ?? "", time: timeIn(next.start, zone, locale) }}
                    components={{ 0: <time dateTime={next.start} /> }}
                  />
                </span>
              </>
            ) : (
              <span className="muted">{t("listen.nothingScheduled")}</span>
            )}
          </dd>
        </div>
      </dl>
      <Link to="/schedule" className="button button--ghost">
        {t("listen.fullSchedule")}
      </Link>
    </section>
  );
}
