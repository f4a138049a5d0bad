import type { ActionFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { savePushSubscription } from "~/models/show-reminders.server";
import { readJson } from "~/services/form-body.server";
import { getListenerSession } from "~/services/session.server";

// A subscription is about 500 bytes of JSON.
const MAX_BYTES = 4 * 1024;

// POST /push-subscriptions: the follow button's browser subscription (PushSubscription.toJSON()), kept for the listener's follows.
export async function action({ request }: ActionFunctionArgs) {
  const session = await getListenerSession(request);
  const result = await savePushSubscription(session.get("followerId"), await readJson(request, MAX_BYTES));
  if (result.ok) return new Response(null, { status: 204 });
  const { t } = await requestTranslator(request);
  const status = result.refusal === "notFollowing" ? 409 : 400;
  const message = {
    invalid: t("schedule.pushSubscriptionInvalid"),
    pushServiceRefused: t("schedule.pushServiceRefused"),
    notFollowing: t("schedule.pushNotFollowing"),
  }[result.refusal];
  return Response.json({ error: message }, { status });
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
