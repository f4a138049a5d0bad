import { createCookie } from "@remix-run/node";

export const THEMES = ["dark", "light", "system"] as const;
export type Theme = (typeof THEMES)[number];

// Not signed: a theme is a harmless preference, and a forged value is refused by readTheme.
const themeCookie = createCookie("theme", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 60 * 60 * 24 * 365 });

function asTheme(value: unknown): Theme {
  return THEMES.includes(value as Theme) ? (value as Theme) : "dark";
}

/** The listener's chosen theme; dark when none was chosen (the station's look). */
export async function readTheme(request: Request): Promise<Theme> {
  return asTheme(await themeCookie.parse(request.headers.get("Cookie")).catch(() => null));
}

/** The Set-Cookie header that remembers a theme for a year. */
export function rememberTheme(value: unknown): Promise<string> {
  return themeCookie.serialize(asTheme(value));
}
