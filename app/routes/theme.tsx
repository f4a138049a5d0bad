import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { readForm } from "~/services/form-body.server";
import { rememberTheme } from "~/services/theme.server";
import { safeRedirect } from "~/utils/safe-redirect";

// The profile drawer's theme switch posts here (a plain form, so it works without JavaScript).
export function loader() {
  return redirect("/listen");
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  return redirect(safeRedirect(form.get("returnTo"), "/listen"), { headers: { "Set-Cookie": await rememberTheme(form.get("theme")) } });
}
