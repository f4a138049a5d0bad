import { stationTranslator } from "~/i18n/catalogs.server";
import { getConfig } from "~/services/config.server";
import { buildCalendar } from "~/services/feeds.server";
import { mediaUrl } from "~/utils/media";
import { listEvents } from "./events.server";
import { getStationIdentity } from "./station.server";

// Events are stored with a start time only; calendars get a block of this length.
const EVENT_LENGTH_MINUTES = 120;

/**
 * The station's events as an iCalendar document, in the station's time zone. One document for
 * every subscriber, so its own words are in the station's language (STATION_LANGUAGE).
 */
export async function buildEventsCalendar(baseUrl: string): Promise<string> {
  const station = getStationIdentity();
  const { t } = stationTranslator();
  const events = await listEvents();
  return buildCalendar({
    name: t("events.calendarName", { station: station.name }),
    description: station.tagline,
    timeZone: getConfig().stationTimezone,
    productId: `-//${station.name}//Events//EN`,
    events: events.map((event) => {
      const [hour, minute] = event.time.split(":").map(Number);
      return {
        // Stored with the event: the same under every host name, proxy or public address, and after export/import.
        uid: event.uid,
        summary: event.name,
        start: {
          year: event.date.getUTCFullYear(),
          month: event.date.getUTCMonth() + 1,
          day: event.date.getUTCDate(),
          hour: hour || 0,
          minute: minute || 0,
          second: 0,
        },
        durationMinutes: EVENT_LENGTH_MINUTES,
        url: `${baseUrl}/events`,
        imageUrl: `${baseUrl}${mediaUrl(event.poster)}`,
        stamp: event.createdAt,
      };
    }),
  });
}
