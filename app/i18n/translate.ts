import type { I18n } from "@lingui/core";
import { createContext, useContext, useMemo } from "react";
import type { MessageKey, MessageValues } from "./keys";
import { intlLocale, type Language } from "./languages";

export interface Translator {
  language: Language;
  /** The locale for `Intl` formats of dates and numbers in this language. */
  locale: string;
  /** The text of a message in this language, its {placeholders} filled from `values`. */
  t: (key: MessageKey, values?: MessageValues) => string;
}

/** A translator over one i18n instance: components get it from useT, server code from serverI18n. */
export function translator(i18n: I18n): Translator {
  const language = i18n.locale as Language;
  return { language, locale: intlLocale(language), t: (key, values) => i18n._(key, values) };
}

/*
 * The page's i18n instance, for components. A plain context rather than @lingui/react's provider:
 * a page's language never changes while it is open (the switch reloads the document), so nothing
 * needs its change events, and /listen's JavaScript budget (issue 14) has no room for them.
 */
const I18nContext = createContext<I18n | null>(null);
export const I18nProvider = I18nContext.Provider;

/** The page's language and its messages, in a component. */
export function useT(): Translator {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useT outside I18nProvider (entry.client.tsx / entry.server.tsx)");
  return useMemo(() => translator(i18n), [i18n]);
}
