import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { buildScheduleCalendar } from "~/models/schedule-calendar.server";
import { siteOrigin } from "~/models/site-origin.server";
import { calendarResponse } from "./schedule[.]ics";

// GET /shows/{slug}.ics (rewritten here by the server) — one show's airings as a calendar.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const ics = await buildScheduleCalendar(await siteOrigin(request.url), slug);
  if (!ics)
    return new Response((await requestTranslator(request)).t("schedule.showNotFound"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return calendarResponse(ics, `${slug}.ics`);
}
