import type { I18n } from "@lingui/core";
import { isLanguage } from "./languages";
import { translator, type Translator } from "./translate";

/**
 * Route `meta` functions run outside components (no hooks), so they find the
 * page's i18n instance here by the language the root loader chose. The server
 * provides one instance per language; the browser its page's one.
 */
const instances = new Map<string, I18n>();

export function provideI18n(i18n: I18n): void {
  instances.set(i18n.locale, i18n);
}

interface MetaMatch {
  id: string;
  data?: unknown;
}

export function metaTranslator(matches: MetaMatch[]): Translator {
  const language = (matches.find((match) => match.id === "root")?.data as { language?: unknown } | undefined)?.language;
  const i18n = (isLanguage(language) && instances.get(language)) || instances.values().next().value;
  if (!i18n) throw new Error("no i18n instance provided (entry.client / catalogs.server)");
  return translator(i18n);
}
