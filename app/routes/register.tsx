import { data, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { PASSWORD_MIN_LENGTH, readRegistration, registerUser } from "~/models/users.server";
import { readForm } from "~/services/form-body.server";
import "~/styles/forms.css";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction = ({ matches }) => withSiteMeta(matches, [{ title: "Register" }]);

// The rule lives on the server; the hint shows it.
export function loader() {
  return { passwordMinLength: PASSWORD_MIN_LENGTH };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const input = readRegistration(await readForm(request));
  const result = await registerUser(input, context.clientIp);
  if (result.ok) return redirect("/login?registered=1");
  // What was typed comes back, except the passwords.
  return data({ msg: result.msg, name: input.name, email: input.email }, { status: result.status });
}

export default function Register() {
  const { passwordMinLength } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/register";
  const form = useRef<HTMLFormElement>(null);

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
            Register
          </h1>
          <p className="muted">Make an account to keep your favorite episodes.</p>
        </div>
        {result?.msg && (
          <p className="form-banner" role="alert" id="register-error">
            {result.msg}
          </p>
        )}
        <Form ref={form} method="post" className="form-stack" aria-describedby={result?.msg ? "register-error" : undefined}>
          <div className="field">
            <label className="field__label" htmlFor="register-name">
              Name
            </label>
            <input id="register-name" className="field__input" name="name" autoComplete="name" required maxLength={80} defaultValue={result?.name} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="register-email">
              Email
            </label>
            <input id="register-email" className="field__input" type="email" name="email" autoComplete="email" required defaultValue={result?.email} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="register-password">
              Password
            </label>
            <input
              id="register-password"
              className="field__input"
              type="password"
              name="password"
              autoComplete="new-password"
              required
              aria-describedby="register-password-hint"
            />
            <span id="register-password-hint" className="field__hint">
              At least {passwordMinLength} characters.
            </span>
          </div>
          <div className="field">
            <label className="field__label" htmlFor="register-con-password">
              Confirm password
            </label>
            <input id="register-con-password" className="field__input" type="password" name="conPassword" autoComplete="new-password" required />
          </div>
          <button type="submit" className="button" disabled={busy}>
            {busy ? "Registering…" : "Register"}
          </button>
        </Form>
        <p className="auth-card__foot">
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </section>
    </div>
  );
}
