import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { readRegistration, registerThroughApi } from "~/models/users.server";
import { readJson } from "~/services/form-body.server";

const USERS_BODY_LIMIT = 16 * 1024;

// POST /users: registration for clients of the original API
// (body {name, email, password, conPassword}; 201 with the user, or {msg}).
// An email already registered is answered like a new one (no account enumeration).

async function postOnly(request: Request) {
  const { t } = await requestTranslator(request);
  return Response.json({ msg: t("forms.usersPostOnly") }, { status: 405, headers: { Allow: "POST" } });
}

export function loader({ request }: LoaderFunctionArgs) {
  return postOnly(request);
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly(request);
  const { t } = await requestTranslator(request);
  // Four short fields: a larger body is refused while it arrives, never parsed whole (413, as {msg} like every answer here).
  let body: unknown;
  try {
    body = await readJson(request, USERS_BODY_LIMIT);
  } catch (refused) {
    if (!(refused instanceof Response)) throw refused;
    return Response.json({ msg: await refused.text() }, { status: refused.status });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Response.json({ msg: t("forms.usersJsonObject") }, { status: 400 });
  }
  const result = await registerThroughApi(readRegistration(body as Record<string, unknown>), context.clientIp);
  if (result.ok) return Response.json(result.user, { status: 201 });
  return Response.json({ msg: t(result.message, result.values) }, { status: result.status });
}
