import type { MessageValues } from "./keys";

/*
 * Renders messages that @lingui/message-utils has compiled from ICU MessageFormat (catalogs.server.ts
 * compiles every message file at start and fails on a broken one). Lingui parses and compiles; this
 * only walks the result, the way @lingui/core's `i18n._` does, for the kinds of placeholder the
 * message files use: {name}, {n, plural, …} (with "#" and =N), {n, selectordinal, …} and
 * {x, select, …}. catalogs.server.ts refuses any other kind at start.
 *
 * Why not @lingui/core itself: in the browser its runtime (loading, events, date and number format
 * styles) is 2 KB gzip that /listen's 100 KB budget has no room for, for work this file does in
 * thirty lines. catalogs.test.ts renders every message of both languages with Lingui's own
 * `i18n._` and with this, and fails on any difference.
 */

/** A compiled message: plain text, or text and placeholders. */
export type CompiledMessage = string | MessageToken[];
export type MessageToken = string | [name: string] | [name: string, type: ChoiceType, cases: Record<string, CompiledMessage | number>];
export type ChoiceType = (typeof CHOICE_TYPES)[number];
export const CHOICE_TYPES = ["plural", "selectordinal", "select"] as const;

const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function rulesFor(language: string, type: "cardinal" | "ordinal"): Intl.PluralRules {
  const key = `${language}|${type}`;
  let rules = pluralRules.get(key);
  if (!rules) pluralRules.set(key, (rules = new Intl.PluralRules(language, { type })));
  return rules;
}

function formatNumber(language: string, value: number): string {
  let format = numberFormats.get(language);
  if (!format) numberFormats.set(language, (format = new Intl.NumberFormat(language)));
  return format.format(value);
}

function render(message: CompiledMessage | number | undefined, language: string, values: MessageValues, count: number | null): string {
  if (message === undefined) return "";
  if (!Array.isArray(message)) return String(message);
  let text = "";
  for (const token of message) {
    // "#" is the plural's number, only directly inside one of its branches (as in Lingui).
    if (token === "#" && count !== null) text += formatNumber(language, count);
    else if (typeof token === "string") text += token;
    else {
      const [name, type, cases = {}] = token;
      const value = values[name];
      if (!type) text += value ?? "";
      else if (type === "select") text += render(cases[String(value)] ?? cases.other, language, values, null);
      else {
        const offset = typeof cases.offset === "number" ? cases.offset : 0;
        const number = Number(value);
        const category = rulesFor(language, type === "plural" ? "cardinal" : "ordinal").select(number - offset);
        text += render(cases[String(value)] ?? cases[category] ?? cases.other, language, values, number - offset);
      }
    }
  }
  return text;
}

/** The text of a compiled message in `language` (a BCP 47 tag), its placeholders filled from `values`. */
export function formatMessage(message: CompiledMessage, language: string, values: MessageValues = {}): string {
  return render(message, language, values, null);
}
