import { createContext, useContext, useMemo } from "react";
import { formatMessage, type CompiledMessage } from "./format-message";
import type { MessageKey, MessageValues } from "./keys";
import { intlLocale, type Language } from "./languages";

/** One language's compiled messages (catalogs.server.ts builds them; the browser fetches its page's). */
export interface Catalog {
  language: Language;
  messages: Record<string, CompiledMessage>;
}

export interface Translator {
  language: Language;
  /** The locale for `Intl` formats of dates and numbers in this language. */
  locale: string;
  /** The text of a message in this language, its {placeholders} filled from `values`. */
  t: (key: MessageKey, values?: MessageValues) => string;
}

/** A translator over one catalog: components get it from useT, server code from serverI18n. A missing key reads as itself. */
export function translator(catalog: Catalog): Translator {
  const { language, messages } = catalog;
  return { language, locale: intlLocale(language), t: (key, values) => formatMessage(messages[key] ?? key, language, values) };
}

/*
 * The page's catalog, for components. A page's language never changes while it is open (the
 * switch reloads the document), so a plain context is all it takes.
 */
const I18nContext = createContext<Catalog | null>(null);
export const I18nProvider = I18nContext.Provider;

/** The page's language and its messages, in a component. */
export function useT(): Translator {
  const catalog = useContext(I18nContext);
  if (!catalog) throw new Error("useT outside I18nProvider (entry.client.tsx / entry.server.tsx)");
  return useMemo(() => translator(catalog), [catalog]);
}
