import { buildScheduleCalendar } from "~/models/schedule-calendar.server";
import { siteOrigin } from "~/models/site-origin.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

// GET /schedule.ics — the whole programme as a calendar listeners can subscribe to.
export async function loader({ request }: LoaderFunctionArgs) {
  const ics = await buildScheduleCalendar(await siteOrigin(request.url));
  return calendarResponse(ics!, "schedule.ics");
}

export function calendarResponse(ics: string, filename: string): Response {
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `inline; filename="${filename}"`,
      "Cache-Control": "public, max-age=300",
    },
  });
}
