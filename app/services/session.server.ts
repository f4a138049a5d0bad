import { randomBytes } from "node:crypto";
import { createCookie, createSession, createSessionStorage, type Session, type SessionStorage } from "@remix-run/node";
import type { Prisma } from "~/generated/prisma/client";
import { getConfig } from "./config.server";
import { db } from "./db.server";
import { secureRequest } from "./request-security.server";
import { singleton } from "./singleton.server";

export interface ListenerSessionData {
  userId: string;
  /** Anonymous id used to count plays once per listener and day (never linked to a user). */
  listenerId: string;
  /** When this browser started each episode (ms), so a play counts only after it really played. */
  playStarts: Record<string, number>;
  /** The episode a guest marked with ♡: saved as their favourite once they sign in or register. */
  pendingFavorite: number;
  /** The ShowFollower row of the shows this listener follows (app/models/show-reminders.server.ts). */
  followerId: string;
}

type ListenerFlash = { error: string };
export type ListenerSession = Session<Partial<ListenerSessionData>, ListenerFlash>;

const SESSION_DAYS = 30;

/**
 * The listener's session, stored server-side in ListenerSession rows; the
 * signed `__session` cookie only names its row. Signing out deletes the row,
 * so a copied or replayed cookie stops working at once, and "sign out
 * everywhere" deletes every row of the account. A cookie whose row is gone
 * reads as a brand-new session and is never given its old id again.
 */
function listenerCookie(secure: boolean) {
  return singleton(secure ? "listenerCookie:secure" : "listenerCookie", () => {
    const config = getConfig();
    return createCookie("__session", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      secrets: [config.sessionSecret!],
      maxAge: 60 * 60 * 24 * SESSION_DAYS,
    });
  });
}

/** The id of the session row this request's signed `__session` cookie names, or null. */
export async function listenerSessionId(request: Request): Promise<string | null> {
  const id: unknown = await listenerCookie(false).parse(request.headers.get("Cookie"));
  return typeof id === "string" && id !== "" ? id : null;
}

/**
 * The listener session storage for this request: its cookie is `Secure` whenever the request came
 * over HTTPS (see secureRequest), and not on a plain-HTTP install, where a browser would drop a
 * Secure cookie and every sign-in would loop.
 */
export function listenerSessionStorage(request: Request): SessionStorage<Partial<ListenerSessionData>, ListenerFlash> {
  const secure = secureRequest(request);
  return singleton(secure ? "listenerSessionStorage:secure" : "listenerSessionStorage", () => {
    const cookie = listenerCookie(secure);
    const expiry = (expires: Date | undefined) => expires ?? new Date(Date.now() + SESSION_DAYS * 86_400_000);
    const userOf = (data: Record<string, unknown>) => (typeof data.userId === "string" ? data.userId : null);
    const base = createSessionStorage<Partial<ListenerSessionData>, ListenerFlash>({
      cookie,
      async createData(data, expires) {
        const id = randomBytes(32).toString("base64url");
        await db().listenerSession.create({ data: { id, data: data as Prisma.InputJsonValue, userId: userOf(data), expiresAt: expiry(expires) } });
        // Now and then, forget sessions that ran out (no separate job needed).
        if (Math.random() < 0.01) await db().listenerSession.deleteMany({ where: { expiresAt: { lt: new Date() } } });
        return id;
      },
      async readData(id) {
        const row = await db().listenerSession.findUnique({ where: { id } });
        return row && row.expiresAt > new Date() ? (row.data as Partial<ListenerSessionData>) : null;
      },
      // Only an existing row is updated: a revoked session is never brought back by its old cookie.
      async updateData(id, data, expires) {
        await db().listenerSession.updateMany({
          where: { id },
          data: { data: data as Prisma.InputJsonValue, userId: userOf(data), expiresAt: expiry(expires) },
        });
      },
      async deleteData(id) {
        await db().listenerSession.deleteMany({ where: { id } });
      },
    });
    return {
      ...base,
      async getSession(cookieHeader, options) {
        const id: unknown = await cookie.parse(cookieHeader ?? null, options);
        if (typeof id !== "string" || id === "") return createSession();
        const row = await db().listenerSession.findUnique({ where: { id } });
        if (!row || row.expiresAt <= new Date()) return createSession();
        return createSession(row.data as Partial<ListenerSessionData>, id);
      },
    };
  });
}

export function getListenerSession(request: Request): Promise<ListenerSession> {
  return listenerSessionStorage(request).getSession(request.headers.get("Cookie"));
}

/**
 * The same session data under a new id (the old row is deleted): used when
 * someone signs in, so an id known before signing in is worth nothing after.
 */
export async function rotateListenerSession(session: ListenerSession): Promise<ListenerSession> {
  if (session.id) await db().listenerSession.deleteMany({ where: { id: session.id } });
  return createSession(session.data, "");
}

/** Ends every session of this account, on every device. */
export async function endAllListenerSessions(userId: string): Promise<void> {
  await db().listenerSession.deleteMany({ where: { userId } });
}
