import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { remindersCalendar } from "~/models/show-reminders.server";
import { siteOrigin } from "~/models/site-origin.server";
import { calendarResponse } from "./schedule[.]ics";

// GET /reminders/{token}/calendar.ics: a follower's shows with an alarm before each airing, for calendar apps
// (which fetch without cookies, hence the secret token in the address).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ics = await remindersCalendar(params.token ?? "", await siteOrigin(request.url));
  if (!ics)
    return new Response((await requestTranslator(request)).t("schedule.remindersNotFound"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return calendarResponse(ics, "reminders.ics");
}
