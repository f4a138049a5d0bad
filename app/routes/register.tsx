import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { hasPendingFavorite, safeRedirect, signInNewAccount } from "~/auth.server";
import { useEffect, useRef } from "react";
import { Message } from "~/i18n/Message";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { readRegistration, registerUser } from "~/models/users.server";
import { readForm } from "~/services/form-body.server";
import { fieldConstraints } from "~/utils/forms/form";
import { registrationFields } from "~/utils/forms/registration";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction = ({ matches }) => withSiteMeta(matches, [{ title: metaTranslator(matches).t("account.registerTitle") }]);

// The same schema checks the post (in registerUser); the password's minimum is only a hint here, so a short one still gets the server's message.
const limits = fieldConstraints(registrationFields);

export async function loader({ request }: LoaderFunctionArgs) {
  return { redirectTo: new URL(request.url).searchParams.get("redirectTo") ?? "", pendingFavorite: await hasPendingFavorite(request) };
}

/** Where a new listener lands, signed in: where they came from, with the spec's success message (app/root.tsx shows it). */
function welcomeUrl(redirectTo: FormDataEntryValue | null): string {
  const url = new URL(safeRedirect(redirectTo), "http://station.invalid");
  url.searchParams.set("registered", "1");
  return url.pathname + url.search + url.hash;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const input = readRegistration(form);
  const result = await registerUser(input, context.clientIp);
  if (result.ok) return signInNewAccount(request, result.user.id, welcomeUrl(form.get("redirectTo")));
  // What was typed comes back, except the passwords; the page translates the message key.
  return data({ msg: result.message, values: result.values, name: input.name, email: input.email }, { status: result.status });
}

export default function Register() {
  const { redirectTo, pendingFavorite } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/register";
  const form = useRef<HTMLFormElement>(null);
  const { t } = useT();

  // With JavaScript the form is not re-rendered from scratch: clear the passwords after a failure.
  useEffect(() => {
    if (!result || !form.current) return;
    for (const name of ["password", "conPassword"]) {
      const input = form.current.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = "";
    }
  }, [result]);

  return (
    <div className="container auth-page">
      <section className="auth-card" aria-labelledby="register-title">
        <div className="auth-card__head">
          <h1 id="register-title" className="page-title">
            {t("account.registerTitle")}
          </h1>
          <p className="muted">{t("account.registerIntro")}</p>
        </div>
        {pendingFavorite && !result && (
          <p className="form-banner form-banner--info" role="status">
            {t("account.favoriteAfterSignIn")}
          </p>
        )}
        {result?.msg && (
          <p className="form-banner" role="alert" id="register-error">
            {t(result.msg, result.values)}
          </p>
        )}
        <Form ref={form} method="post" className="form-stack" aria-describedby={result?.msg ? "register-error" : undefined}>
          {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
          <div className="field">
            <label className="field__label" htmlFor="register-name">
              {t("account.name")}
            </label>
            <input
              id="register-name"
              className="field__input"
              name="name"
              autoComplete="name"
              required={limits.name.required}
              maxLength={limits.name.maxLength}
              defaultValue={result?.name}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="register-email">
              {t("account.email")}
            </label>
            <input
              id="register-email"
              className="field__input"
              type="email"
              name="email"
              autoComplete="email"
              required={limits.email.required}
              defaultValue={result?.email}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="register-password">
              {t("account.password")}
            </label>
            <input
              id="register-password"
              className="field__input"
              type="password"
              name="password"
              autoComplete="new-password"
              required={limits.password.required}
              aria-describedby="register-password-hint"
            />
            <span id="register-password-hint" className="field__hint">
              {t("account.passwordHint", { count: limits.password.minLength })}
            </span>
          </div>
          <div className="field">
            <label className="field__label" htmlFor="register-con-password">
              {t("account.confirmPassword")}
            </label>
            <input
              id="register-con-password"
              className="field__input"
              type="password"
              name="conPassword"
              autoComplete="new-password"
              required={limits.conPassword.required}
            />
          </div>
          <button type="submit" className="button" disabled={busy}>
            {t(busy ? "account.registering" : "account.register")}
          </button>
        </Form>
        <p className="auth-card__foot">
          <Message id="account.haveAccount" components={{ 0: <Link to={redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login"} /> }} />
        </p>
      </section>
    </div>
  );
}
