import { data, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { requestTranslator } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { signOut, signOutEverywhere } from "~/auth.server";
import { readForm } from "~/services/form-body.server";
import { errorText, logError } from "~/services/log.server";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("common.signOutTitle") }, { name: "robots", content: "noindex" }];

// Signing out changes state, so only a POST does it; a visit just goes home.
export function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  try {
    const form = await readForm(request.clone());
    return await (form.get("scope") === "everywhere" ? signOutEverywhere(request) : signOut(request));
  } catch (error) {
    if (error instanceof Response) throw error;
    logError("Sign-out failed", { error: errorText(error) });
    return data({ error: (await requestTranslator(request)).t("common.signOutFailed") }, { status: 500 });
  }
}

export default function SignOutFailed() {
  const result = useActionData<typeof action>();
  const { t } = useT();
  return (
    <div className="container section">
      <p className="form-error" role="alert">
        {result?.error}
      </p>
      <Form method="post">
        <button type="submit" className="button">
          {t("common.signOut")}
        </button>
      </Form>
    </div>
  );
}
