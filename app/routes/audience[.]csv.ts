import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { audienceCsvRows, audienceScopeFor, getAudienceFigures, readAudienceRange } from "~/models/audience-figures.server";
import { requireStaff } from "~/services/admin-session.server";
import { spreadsheetCsv } from "~/services/csv.server";

// GET /audience.csv?from=&to= (admin) — the same figures as /audience.json, one figure per row (section, name, figure, value).
export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireStaff(request, "shows");
  const range = readAudienceRange(new URL(request.url).searchParams);
  if (!range) {
    return new Response((await requestTranslator(request)).t("audience.rangeRefused"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const figures = await getAudienceFigures(range, await audienceScopeFor(actor));
  const name = `audience-${figures.from.slice(0, 10)}-to-${figures.to.slice(0, 10)}.csv`;
  return new Response(spreadsheetCsv(audienceCsvRows(figures)), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}"`, "Cache-Control": "no-store" },
  });
}
