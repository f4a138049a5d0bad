import type { MessageKey, MessageValues } from "~/i18n/keys";
import { db } from "~/services/db.server";
import { claimAttempt, hitRateLimit, limitedAddress, peekRateLimit, resetRateLimit, type BackoffPolicy } from "~/services/rate-limit.server";
import { parseForm } from "~/utils/forms/form";
import { PIN_INVALID, pinKind, pinSchemas } from "~/utils/forms/pin";
import { safeRedirect } from "~/utils/safe-redirect";
import { adminHome, isAdminPage } from "~/utils/site-pages";
import type { StaffRole } from "~/utils/staff-roles";
import { stationHasManager } from "~/services/admin-session.server";
import { activityMessage, logActivity, SYSTEM_ACTOR } from "./activity.server";
import { verifyPin, type PinKind } from "./pins.server";
import { claimFirstManager, staffStanding, verifyStaffPin } from "./staff.server";

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
/** A correct PIN: which one, whose admin session it opens (null: the station PIN's), and where the browser goes next. */
export type PinAccepted = { kind: PinKind; userId: string | null; redirectTo: string };

// Only admin pages (the site's one table of them) the role may open are destinations after the admin PIN.
function adminDestination(redirectTo: string | undefined, role: StaffRole): string {
  const home = adminHome(role);
  const to = safeRedirect(redirectTo, home);
  return isAdminPage(to.split(/[?#]/)[0], role) ? to : home;
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
        activityMessage("admin.activityAdminPinAttacked", { count: ADMIN_PIN_STATION_CEILING, ip: clientIp, minutes }),
      ),
    );
  }
}

/** Wrong admin PINs on one staff account from all addresses together within an hour after which each address gets one free attempt at it. */
export const ADMIN_PIN_ACCOUNT_CEILING = 20;

/**
 * Checks a PIN dialog post. The admin PIN leads to the admin area (the page asked for, or the
 * role's home); the public PIN back to the public site. The route opens or ends the admin session
 * and sends the redirect. Signed in (`userId`), the admin PIN is a second factor: a staff member's
 * own PIN (or the station's while they have none) opens admin for them, and on a station without a
 * manager the first account to enter the station's PIN becomes its manager. Signed out, the station
 * PIN opens admin only while no manager exists (a fresh or upgraded station); afterwards the dialog
 * asks to sign in first, and no PIN is checked at all. Attempts back off per client address and per
 * address on an account (never for everyone: see ADMIN_PIN_STATION_CEILING).
 */
export async function submitPin(clientIp: string, form: FormData, userId: string | null): Promise<PinResult | PinAccepted> {
  const kind: PinKind = pinKind.parse(form.get("kind"));
  const entry = parseForm(pinSchemas[kind], { kind, pin: form.get("pin"), redirectTo: form.get("redirectTo") }, PIN_INVALID);
  if (kind === "public") return checkPublicPin(clientIp, entry.ok ? entry.value.pin : null);
  const standing = userId ? await staffStanding(userId) : null;
  const hasManager = await stationHasManager();
  // Nothing to guess without a way in: these are answered before any PIN is checked (or counted).
  if (hasManager && !standing) return { error: "common.pinSignInFirst", status: 403 };
  if (hasManager && standing && !standing.role) return { error: "common.pinNotStaff", status: 403 };

  const addressKey = `pin:admin:${limitedAddress(clientIp)}`;
  const accountKey = userId ? `pin:admin:account:${userId}` : null;
  const underAttack =
    !(await peekRateLimit(STATION_KEY, ADMIN_PIN_STATION_CEILING)).allowed ||
    (accountKey !== null && !(await peekRateLimit(accountKey, ADMIN_PIN_ACCOUNT_CEILING)).allowed);
  const limit = await claimAttempt(addressKey, underAttack ? PIN_BACKOFF_UNDER_ATTACK : PIN_BACKOFF);
  if (!limit.allowed) return tooMany(limit.retryAfterSeconds);
  const pin = entry.ok ? entry.value.pin : null;
  const right = pin !== null && (standing?.role && userId ? await verifyStaffPin(userId, pin) : await verifyPin("admin", pin));
  if (!right) {
    if (accountKey) await hitRateLimit(accountKey, ADMIN_PIN_ACCOUNT_CEILING, ADMIN_PIN_STATION_WINDOW_MS);
    else await countWrongAdminPin(clientIp);
    return { error: PIN_INVALID, status: 401 };
  }
  await resetRateLimit(addressKey);
  let role: StaffRole = standing?.role ?? "manager";
  if (userId && !standing?.role) {
    // A fresh station: whoever signed in enters the station's PIN first is its manager.
    if (!(await claimFirstManager(userId))) return { error: "common.pinNotStaff", status: 403 };
    role = "manager";
  }
  return { kind, userId, redirectTo: adminDestination(entry.ok ? entry.value.redirectTo : undefined, role) };
}

async function checkPublicPin(clientIp: string, pin: string | null): Promise<PinResult | PinAccepted> {
  const addressKey = `pin:public:${limitedAddress(clientIp)}`;
  const limit = await claimAttempt(addressKey, PIN_BACKOFF);
  if (!limit.allowed) return tooMany(limit.retryAfterSeconds);
  if (pin === null || !(await verifyPin("public", pin))) return { error: PIN_INVALID, status: 401 };
  await resetRateLimit(addressKey);
  return { kind: "public", userId: null, redirectTo: PUBLIC_HOME };
}

/** Where "Leave admin" and the public PIN lead. */
export const PUBLIC_HOME = "/listen";
