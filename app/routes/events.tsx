import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { EventPopup, formatEventDate, type EventView } from "~/components/EventPopup";
import { Icon } from "~/components/Icon";
import { useLiveData } from "~/hooks/useRealtime";
import { requestTranslator } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listEvents } from "~/models/events.server";
import { getStationIdentity } from "~/models/station.server";
import { mediaSrcSet, mediaUrlFor } from "~/utils/media";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const { t } = metaTranslator(matches);
  return withSiteMeta(matches, [{ title: data ? t("events.metaTitle", { station: data.stationName }) : t("events.title") }]);
};

export async function loader({ request }: LoaderFunctionArgs) {
  const [events, { t, locale }] = await Promise.all([listEvents(), requestTranslator(request)]);
  const views: EventView[] = events.map((event) => ({
    id: event.id,
    name: event.name,
    when: t("events.when", { date: formatEventDate(event.date, locale), time: event.time }),
    poster: event.poster,
  }));
  return { events: views, stationName: getStationIdentity().name };
}

export default function Events() {
  const { events, stationName } = useLoaderData<typeof loader>();
  const { t } = useT();
  const [searchParams] = useSearchParams();
  useLiveData("events:changed");
  // "The latest event" is the last one uploaded.
  const latest = events.at(-1);
  return (
    <div className="container">
      <header className="page-head">
        <h1 className="page-title">{t("events.title")}</h1>
        <p className="muted">{t("events.intro", { station: stationName })}</p>
      </header>
      {latest && <EventPopup key={latest.id} event={latest} initiallyOpen={searchParams.get("popup") !== "closed"} once />}
      <section className="section" aria-label={t("events.allEvents")}>
        {events.length === 0 ? (
          <p className="empty-state">
            <Icon name="calendar" />
            {t("events.empty")}
          </p>
        ) : (
          <ul className="event-list">
            {[...events].reverse().map((event, index) => (
              <li key={event.id} className="event-card">
                <div className="event-card__poster">
                  <img
                    src={mediaUrlFor(event.poster, 640)}
                    srcSet={mediaSrcSet(event.poster)}
                    sizes="(min-width: 960px) 380px, 100vw"
                    alt={t("events.posterAlt", { name: event.name })}
                    width={event.poster.width ?? 800}
                    height={event.poster.height ?? 1000}
                    loading={index < 2 ? "eager" : "lazy"}
                    decoding="async"
                  />
                </div>
                <h2 className="event-card__name">{event.name}</h2>
                <p className="event-card__when">
                  <Icon name="calendar" /> {event.when}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
