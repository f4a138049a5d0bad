import type { ActionFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/services/admin-session.server";
import { answerEpisodeForm } from "./episodes-admin";

/**
 * The episode form's answer as JSON, for the browser's upload with progress (AdminForm's `uploadTo`):
 * fetch() reports no upload progress, and the page's own single-fetch answer is Remix's private format.
 */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireStaff(request, "shows");
  const { result, status } = await answerEpisodeForm(request, actor);
  return Response.json(result, { status });
}
