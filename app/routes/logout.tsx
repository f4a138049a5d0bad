import { data, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { signOut, signOutEverywhere } from "~/auth.server";
import { readForm } from "~/services/form-body.server";
import { errorText, logError } from "~/services/log.server";

export const meta: MetaFunction = () => [{ title: "Sign out" }, { name: "robots", content: "noindex" }];

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
    return data({ error: "Sign-out failed. Please try again." }, { status: 500 });
  }
}

export default function SignOutFailed() {
  const result = useActionData<typeof action>();
  return (
    <div className="container section">
      <p className="form-error" role="alert">
        {result?.error}
      </p>
      <Form method="post">
        <button type="submit" className="button">
          Sign out
        </button>
      </Form>
    </div>
  );
}
