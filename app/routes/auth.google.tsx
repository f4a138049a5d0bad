import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { startGoogleSignIn } from "~/auth.server";

// 'Sign With Google' posts here; the drawer's 'REGISTER WITH GOOGLE' may link here.
export function loader({ request }: LoaderFunctionArgs) {
  return startGoogleSignIn(request);
}

export function action({ request }: ActionFunctionArgs) {
  return startGoogleSignIn(request);
}
