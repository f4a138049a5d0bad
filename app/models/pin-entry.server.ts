import { redirect } from "@remix-run/node";
import { endAdminSession, startAdminSession } from "~/services/admin-session.server";
import { hitRateLimit, resetRateLimit } from "~/services/rate-limit.server";
import { verifyPin, type PinKind } from "./pins.server";

export const PIN_ATTEMPTS = 5;
export const PIN_WINDOW_MS = 15 * 60_000;
export const PIN_MAX_LENGTH: Record<PinKind, number> = { admin: 6, public: 5 };

export type PinResult = { error: string; status: number };

// Only admin pages are valid destinations after the admin PIN (no open redirects).
function adminDestination(redirectTo: string | null): string {
  const adminPaths = ["/dashboard-admin", "/chartcontentadmin", "/CrewAdmin", "/eventsAdmin", "/cardlistmoreadmin", "/episodes-admin"];
  if (redirectTo && adminPaths.some((p) => redirectTo === p || redirectTo.startsWith(p + "?"))) return redirectTo;
  return "/dashboard-admin";
}

/**
 * Handles a PIN dialog post. The admin PIN opens an admin session and goes to
 * the dashboard; the public PIN ends it and goes back to the public site.
 * Attempts are limited per client address.
 */
export async function submitPin(request: Request, clientIp: string, form: FormData): Promise<PinResult | Response> {
  const kind: PinKind = form.get("kind") === "public" ? "public" : "admin";
  const pin = String(form.get("pin") ?? "");
  const limit = await hitRateLimit(`pin:${clientIp}`, PIN_ATTEMPTS, PIN_WINDOW_MS);
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    return { error: `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`, status: 429 };
  }
  if (pin.length === 0 || pin.length > PIN_MAX_LENGTH[kind] || !(await verifyPin(kind, pin))) {
    return { error: "Invalid PIN!", status: 401 };
  }
  await resetRateLimit(`pin:${clientIp}`);
  if (kind === "admin") {
    const cookie = await startAdminSession(request, clientIp);
    const redirectTo = form.get("redirectTo");
    return redirect(adminDestination(typeof redirectTo === "string" ? redirectTo : null), { headers: { "Set-Cookie": cookie } });
  }
  return redirect("/listen", { headers: { "Set-Cookie": await endAdminSession(request) } });
}

/** "Leave admin": ends this browser's admin session without a PIN and returns to the public site. */
export async function leaveAdmin(request: Request): Promise<Response> {
  return redirect("/listen", { headers: { "Set-Cookie": await endAdminSession(request) } });
}
