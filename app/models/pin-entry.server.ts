import type { MessageKey, MessageValues } from "~/i18n/keys";
import { db } from "~/services/db.server";
import { hitRateLimit, peekRateLimit, resetRateLimit } from "~/services/rate-limit.server";
import { parseForm } from "~/utils/forms/form";
import { PIN_INVALID, pinKind, pinSchemas } from "~/utils/forms/pin";
import { safeRedirect } from "~/utils/safe-redirect";
import { ADMIN_HOME, isAdminPage } from "~/utils/site-pages";
import { logActivity, SYSTEM_ACTOR } from "./activity.server";
import { verifyPin, type PinKind } from "./pins.server";

export const PIN_ATTEMPTS = 5;
export const PIN_WINDOW_MS = 15 * 60_000;
/** Wrong admin PINs from all addresses together before admin PIN entry pauses (a distributed guesser). */
export const ADMIN_PIN_STATION_CEILING = 50;
export const ADMIN_PIN_STATION_WINDOW_MS = 60 * 60_000;

const STATION_KEY = "pin:admin:station";

/** A refused PIN: the message (the route translates it into the page's language) and the status. */
export type PinResult = { error: MessageKey; values?: MessageValues; status: number };
/** A correct PIN: which one, and where the browser goes next (the route opens or ends the admin session). */
export type PinAccepted = { kind: PinKind; redirectTo: string };

// Only admin pages (the site's one table of them) are destinations after the admin PIN.
function adminDestination(redirectTo: string | undefined): string {
  const to = safeRedirect(redirectTo, ADMIN_HOME);
  return isAdminPage(to.split(/[?#]/)[0]) ? to : ADMIN_HOME;
}

function tooMany(retryAfterSeconds: number): PinResult {
  return { error: "common.pinTooMany", values: { minutes: Math.ceil(retryAfterSeconds / 60) }, status: 429 };
}

/** Counts a wrong admin PIN station-wide; the one that reaches the ceiling writes the pause into the activity log. */
async function countWrongAdminPin(clientIp: string): Promise<void> {
  const station = await hitRateLimit(STATION_KEY, ADMIN_PIN_STATION_CEILING, ADMIN_PIN_STATION_WINDOW_MS);
  if (station.count === ADMIN_PIN_STATION_CEILING) {
    const minutes = Math.ceil(station.retryAfterSeconds / 60);
    await db().$transaction((tx) =>
      logActivity(
        tx,
        SYSTEM_ACTOR,
        "pin.admin.paused",
        `Admin PIN entry paused for ${minutes} minutes: ${ADMIN_PIN_STATION_CEILING} wrong admin PINs within an hour (last from ${clientIp}).`,
      ),
    );
  }
}

/**
 * Checks a PIN dialog post. The admin PIN leads to the dashboard (or the admin page asked for);
 * the public PIN back to the public site. The route opens or ends the admin session and sends
 * the redirect. Attempts are limited per client address.
 */
export async function submitPin(clientIp: string, form: FormData): Promise<PinResult | PinAccepted> {
  const kind: PinKind = pinKind.parse(form.get("kind"));
  const entry = parseForm(pinSchemas[kind], { kind, pin: form.get("pin"), redirectTo: form.get("redirectTo") }, PIN_INVALID);
  // One counter per PIN kind: a correct public PIN never clears wrong admin guesses (nor the reverse).
  const addressKey = `pin:${kind}:${clientIp}`;
  const limit = await hitRateLimit(addressKey, PIN_ATTEMPTS, PIN_WINDOW_MS);
  if (!limit.allowed) return tooMany(limit.retryAfterSeconds);
  if (kind === "admin") {
    const station = await peekRateLimit(STATION_KEY, ADMIN_PIN_STATION_CEILING);
    if (!station.allowed) return { error: "common.pinPaused", status: 429 };
  }
  if (!entry.ok || !(await verifyPin(kind, entry.value.pin))) {
    if (kind === "admin") await countWrongAdminPin(clientIp);
    return { error: PIN_INVALID, status: 401 };
  }
  await resetRateLimit(addressKey);
  return kind === "admin" ? { kind, redirectTo: adminDestination(entry.value.redirectTo) } : { kind, redirectTo: PUBLIC_HOME };
}

/** Where "Leave admin" and the public PIN lead. */
export const PUBLIC_HOME = "/listen";
