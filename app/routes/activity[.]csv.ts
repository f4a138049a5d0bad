import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { activityFilterFrom, listActivity } from "~/models/activity.server";
import { requireStaff } from "~/services/admin-session.server";
import { spreadsheetCsv } from "~/services/csv.server";
import { activityText } from "~/utils/activity-message";

// Rows in one export: the log grows by hand-made changes, so this is years of a station's work.
const EXPORT_LIMIT = 10_000;

// GET /activity.csv?person=&entity= (station managers): the activity log as the page filters it, in the reader's language.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, "station");
  const translator = await requestTranslator(request);
  const { t } = translator;
  const rows = await listActivity({ ...activityFilterFrom(new URL(request.url).searchParams), limit: EXPORT_LIMIT });
  const csv = spreadsheetCsv([
    [
      t("admin.activityCsvTime"),
      t("admin.activityCsvPerson"),
      t("admin.activityCsvAction"),
      t("admin.activityCsvSummary"),
      t("admin.activityCsvSession"),
      t("admin.activityCsvAddress"),
    ],
    ...rows.map((row) => [
      row.createdAt.toISOString(),
      row.actorName ?? (row.session ? t("admin.activityByStation") : ""),
      row.action,
      row.message ? activityText(row.message, translator) : row.summary,
      row.session?.label ?? "",
      row.session?.clientIp ?? "",
    ]),
  ]);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="activity-log.csv"',
      "Cache-Control": "no-store",
    },
  });
}
