import type { Request } from "express";
import { serverI18n } from "~/i18n/catalogs.server";
import { cookieLanguage, LANGUAGE_PARAM } from "~/i18n/language.server";
import { isLanguage, negotiateLanguage, type Language } from "~/i18n/languages";
import { translator, type Translator } from "~/i18n/translate";

/**
 * The translator for a refusal the Express middleware answers before Remix runs (so without the
 * listener's account): the link's `?lang=`, the `lang` cookie, Accept-Language, then the station's
 * language, as app/i18n/language.server.ts decides for pages.
 */
export function expressTranslator(req: Request, stationLanguage: Language): Translator {
  const asked = new URL(req.originalUrl, "http://x").searchParams.get(LANGUAGE_PARAM);
  const language = isLanguage(asked) ? asked : (cookieLanguage(req.headers.cookie) ?? negotiateLanguage(req.headers["accept-language"]) ?? stationLanguage);
  return translator(serverI18n(language));
}
