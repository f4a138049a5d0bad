import { randomBytes } from "node:crypto";
import { createCookie, redirect } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { getConfig } from "./config.server";
import { db } from "./db.server";
import { secureRequest } from "./request-security.server";
import { singleton } from "./singleton.server";

const ADMIN_SESSION_HOURS = 8;

// `Secure` whenever the request came over HTTPS (see secureRequest): a plain-HTTP install still
// gets a cookie the browser keeps, instead of a PIN dialog that asks again and again.
function adminCookie(request: Request) {
  const secure = secureRequest(request);
  return singleton(secure ? "adminCookie:secure" : "adminCookie", () => {
    const config = getConfig();
    return createCookie("__admin", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      secrets: [config.sessionSecret!],
      maxAge: ADMIN_SESSION_HOURS * 3600,
    });
  });
}

export interface AdminSession {
  id: string;
  createdAt: Date;
  expiresAt: Date;
}

async function readSessionId(request: Request): Promise<string | null> {
  const value = await adminCookie(request).parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : null;
}

/** The live admin session of this browser, or null. */
export async function getAdminSession(request: Request): Promise<AdminSession | null> {
  const id = await readSessionId(request);
  if (!id) return null;
  const session = await db().adminSession.findUnique({ where: { id } });
  if (!session || session.expiresAt <= new Date()) return null;
  return session;
}

export async function isAdmin(request: Request): Promise<boolean> {
  return (await getAdminSession(request)) !== null;
}

/**
 * The one guard line at the top of every admin loader and action. Without a
 * live admin session a page redirects to /listen with the PIN dialog open,
 * and any other method is refused with 403.
 */
export async function requireAdmin(request: Request): Promise<AdminSession> {
  const session = await getAdminSession(request);
  if (session) return session;
  if (request.method === "GET" || request.method === "HEAD") {
    const url = new URL(request.url);
    const params = new URLSearchParams({ pin: "admin", redirectTo: url.pathname + url.search });
    throw redirect(`/listen?${params}`);
  }
  throw new Response((await requestTranslator(request)).t("admin.accessRequired"), { status: 403 });
}

/** requireAdmin for actions: who is changing things, as the activity log records it (an AdminActor). */
export async function requireAdminActor(request: Request): Promise<{ adminSessionId: string }> {
  const session = await requireAdmin(request);
  return { adminSessionId: session.id };
}

// Ended sessions are expired rather than deleted, so the activity log still says which session made each change.
async function expireSession(id: string): Promise<void> {
  await db().adminSession.updateMany({ where: { id, expiresAt: { gt: new Date() } }, data: { expiresAt: new Date() } });
}

/**
 * Opens a new admin session after a correct PIN and returns its Set-Cookie
 * header. Any previous session of this browser is ended (the id rotates).
 */
export async function startAdminSession(request: Request, clientIp: string): Promise<string> {
  const previous = await readSessionId(request);
  if (previous) await expireSession(previous);
  const id = randomBytes(32).toString("base64url");
  await db().adminSession.create({
    data: {
      id,
      expiresAt: new Date(Date.now() + ADMIN_SESSION_HOURS * 3600_000),
      clientIp,
      userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? null,
    },
  });
  return adminCookie(request).serialize(id);
}

/** Ends this browser's admin session everywhere and returns the Set-Cookie header that clears it. */
export async function endAdminSession(request: Request): Promise<string> {
  const id = await readSessionId(request);
  if (id) await expireSession(id);
  return adminCookie(request).serialize("", { maxAge: 0 });
}
