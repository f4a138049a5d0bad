import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { readForm } from "~/services/form-body.server";
import { rememberTheme } from "~/services/theme.server";

// The profile drawer's theme switch posts here (a plain form, so it works without JavaScript).
export function loader() {
  return redirect("/listen");
}

/** Only a path on this site, never another origin. */
function backTo(value: FormDataEntryValue | null): string {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : "/listen";
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  return redirect(backTo(form.get("returnTo")), { headers: { "Set-Cookie": await rememberTheme(form.get("theme")) } });
}
