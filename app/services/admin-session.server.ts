import { randomBytes } from "node:crypto";
import { createCookie, redirect } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { getConfig } from "./config.server";
import { db } from "./db.server";
import { isStaffRole, roleMay, type StaffPermission, type StaffRole } from "~/utils/staff-roles";
import { secureRequest } from "./request-security.server";
import { listenerSessionId } from "./session.server";
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

/**
 * A live admin session: whose it is and the role it acts with, read from the database on every
 * request (a revoked role or an ended session counts at once, on every instance).
 */
export interface StaffSession {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  role: StaffRole;
  /** The staff member; null for the station PIN's session on a station without a manager. */
  userId: string | null;
  name: string | null;
}

/** Who is changing things, as the activity log records it (see AdminActor in models/activity.server.ts). */
export interface StaffActor {
  adminSessionId: string;
  userId: string | null;
  name: string | null;
  role: StaffRole;
}

async function readSessionId(request: Request): Promise<string | null> {
  const value = await adminCookie(request).parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : null;
}

/** Whether any account holds the station manager role (from then on the station PIN alone opens nothing). */
export async function stationHasManager(): Promise<boolean> {
  return (await db().user.count({ where: { staffRole: "manager" } })) > 0;
}

/**
 * The live admin session of this browser, or null. A staff member's session counts only beside the
 * listener session it was opened in (the PIN is a second factor on it) and while their role lasts;
 * the station PIN's session (no account) only while the station has no manager.
 */
export async function getStaffSession(request: Request): Promise<StaffSession | null> {
  const id = await readSessionId(request);
  if (!id) return null;
  const listenerId = await listenerSessionId(request);
  const now = new Date();
  const row = await db().adminSession.findUnique({
    where: { id },
    select: {
      id: true,
      createdAt: true,
      expiresAt: true,
      userId: true,
      listenerSessionId: true,
      user: { select: { name: true, staffRole: true, sessions: { where: { id: listenerId ?? "", expiresAt: { gt: now } }, select: { id: true } } } },
    },
  });
  if (!row || row.expiresAt <= now) return null;
  const base = { id: row.id, createdAt: row.createdAt, expiresAt: row.expiresAt };
  if (row.userId) {
    const user = row.user;
    if (!user || !isStaffRole(user.staffRole) || !listenerId || row.listenerSessionId !== listenerId || user.sessions.length === 0) return null;
    return { ...base, role: user.staffRole, userId: row.userId, name: user.name };
  }
  // A station upgraded from the PIN-only version keeps its admin until someone becomes station manager.
  if (await stationHasManager()) return null;
  return { ...base, role: "manager", userId: null, name: null };
}

/**
 * The one guard line at the top of every admin loader and action, naming what it needs (see
 * app/utils/staff-roles.ts). Without a live admin session a page redirects to /listen with the PIN
 * dialog open, and any other method is refused with 403; a session whose role lacks the permission
 * is refused with 403 whatever the method.
 */
export async function requireStaff(request: Request, permission: StaffPermission): Promise<StaffActor> {
  const session = await getStaffSession(request);
  if (!session) {
    if (request.method === "GET" || request.method === "HEAD") {
      const url = new URL(request.url);
      const params = new URLSearchParams({ pin: "admin", redirectTo: url.pathname + url.search });
      throw redirect(`/listen?${params}`);
    }
    throw new Response((await requestTranslator(request)).t("admin.accessRequired"), { status: 403 });
  }
  if (!roleMay(session.role, permission)) throw await forbidden(request);
  return { adminSessionId: session.id, userId: session.userId, name: session.name, role: session.role };
}

/** The 403 for a staff member asking for something their role does not include (also thrown by the show checks). */
export async function forbidden(request: Request): Promise<Response> {
  return new Response((await requestTranslator(request)).t("admin.roleForbidden"), { status: 403 });
}

// Ended sessions are expired rather than deleted, so the activity log still says which session made each change.
async function expireSession(id: string): Promise<void> {
  await db().adminSession.updateMany({ where: { id, expiresAt: { gt: new Date() } }, data: { expiresAt: new Date() } });
}

/**
 * Opens a new admin session after a correct PIN and returns its Set-Cookie header: a staff
 * member's (tied to this browser's listener session) or, with no user, the station PIN's.
 * Any previous session of this browser is ended (the id rotates).
 */
export async function startAdminSession(request: Request, clientIp: string, userId: string | null): Promise<string> {
  const previous = await readSessionId(request);
  if (previous) await expireSession(previous);
  const id = randomBytes(32).toString("base64url");
  await db().adminSession.create({
    data: {
      id,
      userId,
      listenerSessionId: userId ? await listenerSessionId(request) : null,
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
