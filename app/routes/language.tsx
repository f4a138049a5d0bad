import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { getCurrentUser } from "~/auth.server";
import { LANGUAGE_PARAM, rememberLanguage, requestTranslator } from "~/i18n/language.server";
import { isLanguage } from "~/i18n/languages";
import { setUserLanguage } from "~/models/users.server";
import { readForm } from "~/services/form-body.server";
import { safeRedirect } from "~/utils/safe-redirect";

// The language switch (profile drawer and footer) posts here: a plain form, so it works without JavaScript.
export function loader() {
  return redirect("/listen");
}

/** The page the switch was on, without a `?lang=` that would override the new choice. */
function backTo(value: FormDataEntryValue | null): string {
  const target = new URL(safeRedirect(value, "/listen"), "http://station.invalid");
  target.searchParams.delete(LANGUAGE_PARAM);
  return target.pathname + target.search + target.hash;
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const language = form.get("language");
  const user = await getCurrentUser(request);
  if (!isLanguage(language)) throw new Response((await requestTranslator(request)).t("common.unknownLanguage"), { status: 400 });
  // Signed in, the choice follows the listener to their other devices.
  if (user) await setUserLanguage(user.id, language);
  return redirect(backTo(form.get("returnTo")), { headers: { "Set-Cookie": rememberLanguage(language) } });
}
