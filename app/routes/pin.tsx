import { data, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { PinDialog } from "~/components/PinDialog";
import { requestTranslator } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { PUBLIC_HOME, submitPin } from "~/models/pin-entry.server";
import { endAdminSession, startAdminSession } from "~/services/admin-session.server";
import { readForm } from "~/services/form-body.server";
import { pinKind, signInHref, type PinRefusal } from "~/utils/forms/pin";
import { getCurrentUser } from "~/auth.server";

// Without JavaScript the PIN dialogs post here, and a wrong PIN re-renders
// the dialog on this page; with JavaScript they post here through a fetcher.
export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("common.pinPageTitle") }, { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  // "Leave admin" ends this browser's admin session without a PIN.
  if (form.get("intent") === "leave") return redirect(PUBLIC_HOME, { headers: { "Set-Cookie": await endAdminSession(request) } });
  const user = await getCurrentUser(request);
  const result = await submitPin(context.clientIp, form, user?.id ?? null);
  if ("redirectTo" in result) {
    const cookie = result.kind === "admin" ? await startAdminSession(request, context.clientIp, result.userId) : await endAdminSession(request);
    return redirect(result.redirectTo, { headers: { "Set-Cookie": cookie } });
  }
  const { t } = await requestTranslator(request);
  const redirectTo = String(form.get("redirectTo") ?? "");
  return data<PinRefusal>(
    {
      error: t(result.error, result.values),
      kind: pinKind.parse(form.get("kind")),
      redirectTo,
      // Signed out on a station with a manager: the dialog offers sign-in, which comes back to the PIN.
      signIn: result.error === "common.pinSignInFirst" ? signInHref(redirectTo) : undefined,
    },
    { status: result.status },
  );
}

export default function PinPage() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  return (
    <div className="container section">
      <PinDialog
        kind={result?.kind ?? (searchParams.get("kind") === "public" ? "public" : "admin")}
        open
        error={navigation.state === "idle" ? result?.error : undefined}
        redirectTo={result?.redirectTo ?? searchParams.get("redirectTo") ?? undefined}
        signIn={navigation.state === "idle" ? result?.signIn : undefined}
        closeHref="/listen"
      />
    </div>
  );
}
