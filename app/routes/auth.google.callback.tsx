import type { LoaderFunctionArgs } from "@remix-run/node";
import { finishGoogleSignIn } from "~/auth.server";

export function loader({ request }: LoaderFunctionArgs) {
  return finishGoogleSignIn(request);
}
