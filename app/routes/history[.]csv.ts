import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { songHistoryCsv } from "~/models/song-history.server";
import { requireStaff } from "~/services/admin-session.server";
import { getConfig } from "~/services/config.server";
import { fromDateTimeLocal } from "~/utils/time-zone";

// GET /history.csv?from=YYYY-MM-DD&to=YYYY-MM-DD (admin) — the songs of those station days, for licensing reports.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, "content");
  const url = new URL(request.url);
  const timeZone = getConfig().stationTimezone;
  const fromDay = url.searchParams.get("from") ?? "";
  const toDay = url.searchParams.get("to") ?? "";
  const from = /^\d{4}-\d{2}-\d{2}$/.test(fromDay) ? fromDateTimeLocal(`${fromDay}T00:00`, timeZone) : null;
  const lastDay = /^\d{4}-\d{2}-\d{2}$/.test(toDay) ? fromDateTimeLocal(`${toDay}T00:00`, timeZone) : null;
  if (!from || !lastDay || lastDay < from) {
    return new Response((await requestTranslator(request)).t("schedule.exportDatesInvalid"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  // The to date is included: up to the start of the next station day.
  const next = new Date(`${toDay}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  const to = fromDateTimeLocal(`${next.toISOString().slice(0, 10)}T00:00`, timeZone)!;
  return new Response(songHistoryCsv(from, to, timeZone), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="song-history-${fromDay}-to-${toDay}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
