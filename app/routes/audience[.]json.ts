import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { audienceScopeFor, getAudienceFigures, readAudienceRange } from "~/models/audience-figures.server";
import { requireStaff } from "~/services/admin-session.server";

// GET /audience.json?from=&to= (admin) — the Audience screen's figures (README "Audience" names each field).
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
  return Response.json(figures, { headers: { "Cache-Control": "no-store" } });
}
