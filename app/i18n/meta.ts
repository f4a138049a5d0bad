import { isLanguage } from "./languages";
import { translator, type Catalog, type Translator } from "./translate";

/**
 * Route `meta` functions run outside components (no hooks), so they find the
 * page's catalog here by the language the root loader chose. The server
 * provides one catalog per language; the browser its page's one.
 */
const catalogs = new Map<string, Catalog>();

export function provideI18n(catalog: Catalog): void {
  catalogs.set(catalog.language, catalog);
}

interface MetaMatch {
  id: string;
  data?: unknown;
}

export function metaTranslator(matches: MetaMatch[]): Translator {
  const language = (matches.find((match) => match.id === "root")?.data as { language?: unknown } | undefined)?.language;
  const catalog = (isLanguage(language) && catalogs.get(language)) || catalogs.values().next().value;
  if (!catalog) throw new Error("no catalog provided (entry.client / catalogs.server)");
  return translator(catalog);
}
