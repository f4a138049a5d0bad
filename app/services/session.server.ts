import { createCookieSessionStorage, type SessionStorage } from "@remix-run/node";
import { getConfig } from "./config.server";
import { singleton } from "./singleton.server";

export interface ListenerSessionData {
  userId: string;
  /** Anonymous id used to count plays once per listener session (never linked to a user). */
  listenerId: string;
}

/**
 * The listener's cookie session (signed with SESSION_SECRET): who is signed
 * in, and an anonymous id for play counts. Admin access has its own session.
 */
export function listenerSessionStorage(): SessionStorage<Partial<ListenerSessionData>, { error: string }> {
  return singleton("listenerSessionStorage", () => {
    const config = getConfig();
    return createCookieSessionStorage<Partial<ListenerSessionData>, { error: string }>({
      cookie: {
        name: "__session",
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: config.production,
        secrets: [config.sessionSecret!],
        maxAge: 60 * 60 * 24 * 30,
      },
    });
  });
}

export function getListenerSession(request: Request) {
  return listenerSessionStorage().getSession(request.headers.get("Cookie"));
}
