import type { ActionFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { readRegistration, registerThroughApi } from "~/models/users.server";

// POST /users: registration for clients of the original API
// (body {name, email, password, conPassword}; 201 with the user, or {msg}).
// An email already registered is answered like a new one (no account enumeration).

function postOnly() {
  return Response.json({ msg: "Use POST to register." }, { status: 405, headers: { Allow: "POST" } });
}

export function loader() {
  return postOnly();
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    body = undefined;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Response.json({ msg: "Send the registration as a JSON object: {name, email, password, conPassword}." }, { status: 400 });
  }
  const result = await registerThroughApi(readRegistration(body as Record<string, unknown>), context.clientIp);
  if (result.ok) return Response.json(result.user, { status: 201 });
  return Response.json({ msg: (await requestTranslator(request)).t(result.message, result.values) }, { status: result.status });
}
