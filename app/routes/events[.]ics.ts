import type { LoaderFunctionArgs } from "@remix-run/node";
import { buildEventsCalendar } from "~/models/event-calendar.server";
import { siteOrigin } from "~/models/site-origin.server";

// GET /events.ics — the station's events as a calendar listeners can subscribe to.
export async function loader({ request }: LoaderFunctionArgs) {
  const ics = await buildEventsCalendar(await siteOrigin(request.url));
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="events.ics"',
      "Cache-Control": "public, max-age=300",
    },
  });
}
