import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { hasPendingFavorite, isGoogleSignInConfigured, signInWithPassword } from "~/auth.server";
import type { MessageKey } from "~/i18n/keys";
import { Message } from "~/i18n/Message";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { readForm } from "~/services/form-body.server";
import { getListenerSession, listenerSessionStorage } from "~/services/session.server";
import { fieldConstraints } from "~/utils/forms/form";
import { signInFields } from "~/utils/forms/sign-in";
import { withSiteMeta } from "~/utils/meta";

const limits = fieldConstraints(signInFields);

export const meta: MetaFunction = ({ matches }) => withSiteMeta(matches, [{ title: metaTranslator(matches).t("account.signInTitle") }]);

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const session = await getListenerSession(request);
  // A failed Google sign-in leaves its message key here as a flash: reading it ends it.
  const googleError = (session.get("error") as MessageKey | undefined) ?? null;
  const values = {
    googleConfigured: isGoogleSignInConfigured(),
    googleError,
    pendingFavorite: await hasPendingFavorite(request),
    redirectTo: url.searchParams.get("redirectTo") ?? "",
  };
  if (!googleError) return values;
  return data(values, { headers: { "Set-Cookie": await listenerSessionStorage(request).commitSession(session) } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const result = await signInWithPassword(request, form, context.clientIp);
  if (result instanceof Response) return result;
  return data({ error: result.error, values: result.values, email: String(form.get("email") ?? "") }, { status: result.status });
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path fill="#4285F4" d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z" />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}

export default function Login() {
  const { googleConfigured, googleError, redirectTo, pendingFavorite } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/login") === true;
  const { t } = useT();
  const error = result ? t(result.error, result.values) : googleError && t(googleError);

  return (
    <div className="container auth-page">
      <section className="auth-card" aria-labelledby="login-title">
        <div className="auth-card__head">
          <h1 id="login-title" className="page-title">
            {t("account.signInTitle")}
          </h1>
          <p className="muted">{t("account.signInIntro")}</p>
        </div>
        {pendingFavorite && !result && (
          <p className="form-banner form-banner--info" role="status">
            {t("account.favoriteAfterSignIn")}
          </p>
        )}
        {error && (
          <p className="form-banner" role="alert" id="login-error">
            {error}
          </p>
        )}
        {/* Google is offered only where the station configured it. */}
        {googleConfigured && (
          <>
            <Form method="post" action="/auth/google" reloadDocument>
              <button type="submit" className="button google-button">
                <GoogleMark />
                {t("account.signInWithGoogle")}
              </button>
            </Form>
            <p className="auth-divider">{t("account.or")}</p>
          </>
        )}
        <Form method="post" className="form-stack" aria-describedby={error ? "login-error" : undefined}>
          {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
          <div className="field">
            <label className="field__label" htmlFor="login-email">
              {t("account.email")}
            </label>
            <input id="login-email" className="field__input" type="email" name="email" autoComplete="email" {...limits.email} defaultValue={result?.email} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="login-password">
              {t("account.password")}
            </label>
            <input id="login-password" className="field__input" type="password" name="password" autoComplete="current-password" {...limits.password} />
          </div>
          <button type="submit" className="button" disabled={busy}>
            {t(busy ? "account.signingIn" : "account.signIn")}
          </button>
        </Form>
        <p className="auth-card__foot">
          <Message id="account.newHere" components={{ 0: <Link to={redirectTo ? `/register?redirectTo=${encodeURIComponent(redirectTo)}` : "/register"} /> }} />
        </p>
      </section>
    </div>
  );
}
