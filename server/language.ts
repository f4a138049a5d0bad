import { parse as parseCookies } from "cookie";
import type { Request } from "express";
import { serverI18n } from "~/i18n/catalogs.server";
import { isLanguage, negotiateLanguage, type Language } from "~/i18n/languages";
import { translator, type Translator } from "~/i18n/translate";

/** The `lang` cookie's value as Remix's createCookie writes it (base64 of JSON), or null. */
function cookieLanguage(header: string | undefined): Language | null {
  try {
    const raw = parseCookies(header ?? "").lang;
    const value: unknown = raw ? JSON.parse(Buffer.from(raw, "base64").toString("utf8")) : null;
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The translator for a refusal the Express middleware answers before Remix runs (so without the
 * listener's account): the link's `?lang=`, the `lang` cookie, Accept-Language, then the station's
 * language, as app/i18n/language.server.ts decides for pages.
 */
export function expressTranslator(req: Request, stationLanguage: Language): Translator {
  const asked = new URL(req.originalUrl, "http://x").searchParams.get("lang");
  const language = isLanguage(asked) ? asked : (cookieLanguage(req.headers.cookie) ?? negotiateLanguage(req.headers["accept-language"]) ?? stationLanguage);
  return translator(serverI18n(language));
}
