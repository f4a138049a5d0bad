import type { MessageKey, MessageValues } from "~/i18n/keys";
import { db } from "~/services/db.server";
import { claimAttempt, hitRateLimit, limitedAddress, peekRateLimit, resetRateLimit, type BackoffPolicy } from "~/services/rate-limit.server";
import { parseForm } from "~/utils/forms/form";
import { PIN_INVALID, pinKind, pinSchemas } from "~/utils/forms/pin";
import { safeRedirect } from "~/utils/safe-redirect";
import { ADMIN_HOME, isAdminPage } from "~/utils/site-pages";
import { logActivity, SYSTEM_ACTOR } from "./activity.server";
import { verifyPin, type PinKind } from "./pins.server";

/** Attempts per address (per PIN kind) that pass at once; then each waits 1, 2, 4, ... minutes, at most an hour. */
export const PIN_ATTEMPTS = 5;
/**
 * Wrong admin PINs from all addresses together within an hour after which the station counts as under
 * attack (written to the activity log): from then on every address gets a single free attempt before
 * its back-off starts. Entry never stops for everyone: an address nobody guessed from (the real
 * admin's) still has its attempt, so a distributed guesser cannot lock the admin out.
 */
export const ADMIN_PIN_STATION_CEILING = 50;
export const ADMIN_PIN_STATION_WINDOW_MS = 60 * 60_000;

/** The per-address back-off of PIN attempts (see claimAttempt); an address is forgotten a day after its last attempt. */
export const PIN_BACKOFF: BackoffPolicy = { free: PIN_ATTEMPTS, baseMs: 60_000, capMs: 60 * 60_000, forgetMs: 24 * 60 * 60_000 };
/** The same while the admin PIN is under attack: one free attempt per address. */
export const PIN_BACKOFF_UNDER_ATTACK: BackoffPolicy = { ...PIN_BACKOFF, free: 1 };

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

/** Counts a wrong admin PIN station-wide; the one that reaches the ceiling writes the alert into the activity log. */
async function countWrongAdminPin(clientIp: string): Promise<void> {
  const station = await hitRateLimit(STATION_KEY, ADMIN_PIN_STATION_CEILING, ADMIN_PIN_STATION_WINDOW_MS);
  if (station.count === ADMIN_PIN_STATION_CEILING) {
    const minutes = Math.ceil(station.retryAfterSeconds / 60);
    await db().$transaction((tx) =>
      logActivity(
        tx,
        SYSTEM_ACTOR,
        "pin.admin.attacked",
        `Admin PIN under attack: ${ADMIN_PIN_STATION_CEILING} wrong admin PINs within an hour (last from ${clientIp}); for the next ${minutes} minutes each address gets one attempt before its back-off.`,
      ),
    );
  }
}

/**
 * Checks a PIN dialog post. The admin PIN leads to the dashboard (or the admin page asked for);
 * the public PIN back to the public site. The route opens or ends the admin session and sends
 * the redirect. Attempts back off per client address (never for everyone: see ADMIN_PIN_STATION_CEILING).
 */
export async function submitPin(clientIp: string, form: FormData): Promise<PinResult | PinAccepted> {
  const kind: PinKind = pinKind.parse(form.get("kind"));
  const entry = parseForm(pinSchemas[kind], { kind, pin: form.get("pin"), redirectTo: form.get("redirectTo") }, PIN_INVALID);
  // One counter per PIN kind: a correct public PIN never clears wrong admin guesses (nor the reverse).
  const addressKey = `pin:${kind}:${limitedAddress(clientIp)}`;
  const underAttack = kind === "admin" && !(await peekRateLimit(STATION_KEY, ADMIN_PIN_STATION_CEILING)).allowed;
  const limit = await claimAttempt(addressKey, underAttack ? PIN_BACKOFF_UNDER_ATTACK : PIN_BACKOFF);
  if (!limit.allowed) return tooMany(limit.retryAfterSeconds);
  if (!entry.ok || !(await verifyPin(kind, entry.value.pin))) {
    if (kind === "admin") await countWrongAdminPin(clientIp);
    return { error: PIN_INVALID, status: 401 };
  }
  await resetRateLimit(addressKey);
  return kind === "admin" ? { kind, redirectTo: adminDestination(entry.value.redirectTo) } : { kind, redirectTo: PUBLIC_HOME };
}

/** Where "Leave admin" and the public PIN lead. */
export const PUBLIC_HOME = "/listen";
