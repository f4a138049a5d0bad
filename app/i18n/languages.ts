/**
 * The languages the station speaks, and how a request picks one. Shared by the
 * server (which decides) and the browser (which formats dates in it).
 *
 * Adding a language: see "Adding a language" in the README.
 */
export const LANGUAGES = ["id", "en"] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's name in itself: a listener looks for their own language's name. */
export const LANGUAGE_NAMES: Record<Language, string> = { id: "Bahasa Indonesia", en: "English" };

/**
 * The locale `Intl` formats dates and numbers with. English is the station's
 * second language in Indonesia: day-month order and a 24-hour clock, as in Indonesian.
 */
const INTL_LOCALES: Record<Language, string> = { id: "id-ID", en: "en-GB" };

export function intlLocale(language: Language): string {
  return INTL_LOCALES[language];
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The listener's preferred language among ours, from an Accept-Language header
 * (RFC 9110: comma-separated ranges with optional q weights; `*` means any).
 * Null when the header names none of ours (the station's language applies then).
 */
export function negotiateLanguage(header: string | null | undefined): Language | null {
  if (!header) return null;
  const ranges = header
    .slice(0, 1_000)
    .split(",")
    .map((part, order) => {
      const [range, ...params] = part.trim().split(";");
      // A weight that is not a number between 0 and 1 makes the range unusable, as q=0 would.
      const q = params.find((param) => /^\s*q\s*=/i.test(param));
      const weight = q === undefined ? 1 : /^\s*q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/i.test(q) ? Number.parseFloat(q.split("=")[1]) : 0;
      return { range: range.trim().toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, order };
    })
    .filter((entry) => entry.range && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  for (const { range } of ranges) {
    if (range === "*") return null;
    const primary = range.split("-")[0];
    // "in" is the old ISO 639 code for Indonesian that some systems still send.
    const language = primary === "in" ? "id" : primary;
    if (isLanguage(language)) return language;
  }
  return null;
}
