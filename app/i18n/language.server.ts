import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import { getCurrentUser } from "~/auth.server";
import { serverI18n } from "./catalogs.server";
import { translator, type Translator } from "./translate";
import { getConfig } from "~/services/config.server";
import { isLanguage, negotiateLanguage, type Language } from "./languages";

// A plain `lang=en` cookie, not signed: a language is a harmless preference, a forged value is
// refused by isLanguage, and code outside Remix (server/) reads it the same way.
export const LANGUAGE_COOKIE = "lang";

/** The `?lang=` of a URL: a link to one language (search engines' hreflang alternates use it). */
export const LANGUAGE_PARAM = "lang";

/** The language remembered on this device, from a Cookie header. */
export function cookieLanguage(header: string | null | undefined): Language | null {
  let value: string | undefined;
  try {
    value = parseCookies(header ?? "")[LANGUAGE_COOKIE];
  } catch {
    return null;
  }
  return isLanguage(value) ? value : null;
}

/**
 * The language a page is rendered in, first that applies: the link's `?lang=`,
 * the signed-in listener's account, the choice remembered on this device, the
 * browser's Accept-Language, then the station's STATION_LANGUAGE.
 * The page cache keys on the same inputs (server/page-cache.ts).
 */
export async function resolveLanguage(request: Request, accountLanguage?: string | null): Promise<Language> {
  const asked = new URL(request.url).searchParams.get(LANGUAGE_PARAM);
  if (isLanguage(asked)) return asked;
  if (isLanguage(accountLanguage)) return accountLanguage;
  return cookieLanguage(request.headers.get("Cookie")) ?? negotiateLanguage(request.headers.get("Accept-Language")) ?? getConfig().stationLanguage;
}

/** The Set-Cookie header that remembers a language on this device for a year. */
export function rememberLanguage(language: Language): string {
  return serializeCookie(LANGUAGE_COOKIE, language, { path: "/", sameSite: "lax", httpOnly: true, maxAge: 60 * 60 * 24 * 365 });
}

/**
 * The translator for server texts of this request (form errors, refusals,
 * feeds): the language its page is rendered in.
 */
export async function requestTranslator(request: Request): Promise<Translator> {
  const user = await getCurrentUser(request);
  return translator(serverI18n(await resolveLanguage(request, user?.language)));
}
