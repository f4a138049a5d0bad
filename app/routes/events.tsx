import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { EventPopup, type EventView } from "~/components/EventPopup";
import { Icon } from "~/components/Icon";
import { useLiveData } from "~/hooks/useRealtime";
import { listEvents } from "~/models/events.server";
import { getStationIdentity } from "~/models/station.server";
import { mediaSrcSet, mediaUrlFor } from "~/utils/media";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => withSiteMeta(matches, [{ title: data ? `EVENTS · ${data.stationName}` : "EVENTS" }]);

// Event dates are calendar dates (stored at UTC midnight); times are already in the station's zone.
const dateFormat = new Intl.DateTimeFormat("id-ID", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

export async function loader(_: LoaderFunctionArgs) {
  const events = await listEvents();
  const views: EventView[] = events.map((event) => ({
    id: event.id,
    name: event.name,
    when: `${dateFormat.format(event.date)} · ${event.time}`,
    poster: event.poster,
  }));
  return { events: views, stationName: getStationIdentity().name };
}

export default function Events() {
  const { events, stationName } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  useLiveData("events:changed");
  // "The latest event" is the last one uploaded.
  const latest = events.at(-1);
  return (
    <div className="container">
      <header className="page-head">
        <h1 className="page-title">EVENTS</h1>
        <p className="muted">Come and meet {stationName} off the air.</p>
      </header>
      {latest && <EventPopup key={latest.id} event={latest} initiallyOpen={searchParams.get("popup") !== "closed"} />}
      <section className="section" aria-label="All events">
        {events.length === 0 ? (
          <p className="empty-state">
            <Icon name="calendar" />
            Belum ada event yang diunggah.
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
                    alt={`Poster for ${event.name}`}
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
