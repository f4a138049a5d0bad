/**
 * What a widget may be told, by its element's attributes (/widgets.js) or by its iframe's query
 * (/embed/...), and the one check both go through: a value is taken only when it is exactly one
 * of the allowed forms, so nothing the host page writes reaches a widget's markup or a URL as text.
 * Shared by the widget script, the embed pages, the oEmbed answer and the admin's widget builder.
 */
export const WIDGET_KINDS = ["player", "now-playing", "schedule", "history", "episode"] as const;
export type WidgetKind = (typeof WIDGET_KINDS)[number];

export const THEMES = ["auto", "dark", "light"] as const;
export const SIZES = ["small", "medium", "large"] as const;
export const WIDGET_LANGUAGES = ["id", "en"] as const;
export const SCHEDULE_VIEWS = ["today", "week"] as const;
export const HISTORY_LIMITS = { min: 1, max: 20, fallback: 5 } as const;
/** Longest start offset a shared link may ask for: a day (no episode is longer). */
export const MAX_START_SECONDS = 86_400;

export interface WidgetOptions {
  theme: (typeof THEMES)[number];
  size: (typeof SIZES)[number];
  /** The page's language when unset: the embed page and the script pick the station's. */
  lang: (typeof WIDGET_LANGUAGES)[number] | null;
  /** "#rrggbb" or "#rgb"; null: the station's own accent colour. */
  accent: string | null;
  /** An episode's id (player: plays it instead of the live stream; episode: required). */
  episode: number | null;
  /** Where an episode starts, in whole seconds. */
  start: number | null;
  view: (typeof SCHEDULE_VIEWS)[number];
  limit: number;
}

/** The names a widget reads, as attributes and as query parameters alike. */
export const OPTION_NAMES = ["theme", "size", "lang", "accent", "episode", "t", "view", "limit"] as const;
export type OptionName = (typeof OPTION_NAMES)[number];

export type OptionsCheck = { options: WidgetOptions; invalid: OptionName[] };

const oneOf = <T extends string>(allowed: readonly T[], value: string): T | undefined =>
  (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
const wholeNumber = (value: string, min: number, max: number): number | undefined => {
  if (!/^\d{1,9}$/.test(value)) return undefined;
  const number = Number(value);
  return number >= min && number <= max ? number : undefined;
};
// Hex colours only: a CSS value of the host's choosing could reach outside its custom property.
const ACCENT = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * Reads the options from `read` (an attribute or a query parameter; null when absent). A value that
 * is absent or empty takes the default; one that is present but not allowed takes the default too
 * and is named in `invalid` (the embed pages refuse such a request, the script ignores the value).
 */
export function readWidgetOptions(kind: WidgetKind, read: (name: OptionName) => string | null): OptionsCheck {
  const invalid: OptionName[] = [];
  function take<T>(name: OptionName, parse: (value: string) => T | undefined, fallback: T): T {
    const raw = read(name);
    if (raw === null || raw.trim() === "") return fallback;
    const value = raw.length <= 16 ? parse(raw.trim().toLowerCase()) : undefined;
    if (value === undefined) {
      invalid.push(name);
      return fallback;
    }
    return value;
  }
  const usesEpisode = kind === "player" || kind === "episode";
  const options: WidgetOptions = {
    theme: take("theme", (value) => oneOf(THEMES, value), "auto"),
    size: take("size", (value) => oneOf(SIZES, value), "medium"),
    lang: take<WidgetOptions["lang"]>("lang", (value) => oneOf(WIDGET_LANGUAGES, value), null),
    accent: take<string | null>("accent", (value) => (ACCENT.test(value) ? value : undefined), null),
    episode: usesEpisode ? take<number | null>("episode", (value) => wholeNumber(value, 1, 999_999_999), null) : null,
    start: usesEpisode ? take<number | null>("t", (value) => wholeNumber(value, 0, MAX_START_SECONDS), null) : null,
    view: kind === "schedule" ? take("view", (value) => oneOf(SCHEDULE_VIEWS, value), "today") : "today",
    limit:
      kind === "history"
        ? take("limit", (value) => wholeNumber(value, HISTORY_LIMITS.min, HISTORY_LIMITS.max), HISTORY_LIMITS.fallback)
        : HISTORY_LIMITS.fallback,
  };
  if (kind === "episode" && options.episode === null && !invalid.includes("episode")) invalid.push("episode");
  return { options, invalid };
}

/** The options that differ from the defaults, as attribute/query pairs in a fixed order (snippets, iframe addresses). */
export function optionPairs(kind: WidgetKind, options: WidgetOptions): [OptionName, string][] {
  const pairs: [OptionName, string | null][] = [
    ["theme", options.theme === "auto" ? null : options.theme],
    ["size", options.size === "medium" ? null : options.size],
    ["lang", options.lang],
    ["accent", options.accent],
    ["episode", kind === "player" ? (options.episode === null ? null : String(options.episode)) : null],
    ["t", (kind === "player" || kind === "episode") && options.start ? String(options.start) : null],
    ["view", kind === "schedule" && options.view !== "today" ? options.view : null],
    ["limit", kind === "history" && options.limit !== HISTORY_LIMITS.fallback ? String(options.limit) : null],
  ];
  return pairs.filter((pair): pair is [OptionName, string] => pair[1] !== null);
}

/** The iframe version's path and query for a widget (the episode widget carries its id in the path). */
export function embedPath(kind: WidgetKind, options: WidgetOptions): string {
  const query = new URLSearchParams(optionPairs(kind, options)).toString();
  const path = kind === "episode" ? `/embed/episode/${options.episode ?? ""}` : `/embed/${kind}`;
  return query ? `${path}?${query}` : path;
}

/** Pixel heights the iframe versions are given by default (the oEmbed answer and the builder's snippet). */
export function embedHeight(kind: WidgetKind, options: Pick<WidgetOptions, "size" | "view" | "limit">): number {
  const scale = options.size === "small" ? 0.85 : options.size === "large" ? 1.2 : 1;
  const base = { player: 112, "now-playing": 96, episode: 200, schedule: options.view === "week" ? 560 : 320, history: 64 + options.limit * 44 }[kind];
  return Math.round(base * scale);
}
