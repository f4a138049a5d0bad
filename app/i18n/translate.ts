import type { I18n } from "@lingui/core";
import { useLingui } from "@lingui/react";
import { useMemo } from "react";
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

/** The page's language and its messages, in a component. */
export function useT(): Translator {
  const { i18n } = useLingui();
  return useMemo(() => translator(i18n), [i18n]);
}
