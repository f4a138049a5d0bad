import { data, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { readRegistration, registerUser } from "~/models/users.server";
import { readForm } from "~/services/form-body.server";
import { fieldConstraints } from "~/utils/forms/form";
import { registrationFields } from "~/utils/forms/registration";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction = ({ matches }) => withSiteMeta(matches, [{ title: "Register" }]);

// The same schema checks the post (in registerUser); the password's minimum is only a hint here, so a short one still gets the server's message.
const limits = fieldConstraints(registrationFields);

export async function action({ request, context }: ActionFunctionArgs) {
  const input = readRegistration(await readForm(request));
  const result = await registerUser(input, context.clientIp);
  if (result.ok) return redirect("/login?registered=1");
  // What was typed comes back, except the passwords.
  return data({ msg: result.message, name: input.name, email: input.email }, { status: result.status });
}

export default function Register() {
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
              Email
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
              Password
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
              At least {limits.password.minLength} characters.
            </span>
          </div>
          <div className="field">
            <label className="field__label" htmlFor="register-con-password">
              Confirm password
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
