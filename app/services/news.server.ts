import { getConfig } from "./config.server";
import { readResponseWithin } from "./http-response.server";
import { singleton, setSingleton } from "./singleton.server";

// The one module that talks to the news API (api-berita-indonesia shapes, see
// shared/spec/reference-app.md). Everything it returns has been validated:
// upstream text is plain text, links and images are http(s) URLs or absent.

/** How many posts a news list shows (spec section 9). */
export const NEWS_POST_LIMIT = 6;

/** The news source the station reads (endpoints[2] of the API root). */
const NEWS_SOURCE = "cnn";
const LATEST_CATEGORY = "terbaru";

export interface NewsPost {
  title: string;
  link: string;
  description: string;
  thumbnail: string | null;
  /** ISO date, or null when the API's date was missing or unreadable. */
  pubDate: string | null;
}

export interface NewsCategory {
  /** The API's name, e.g. "gayaHidup": what /news?category= carries. */
  name: string;
  /** For people: "Gaya Hidup". */
  label: string;
}

/** What a cached read gives back: the last good value, or nothing if there never was one. */
export type Cached<T> = { ok: true; value: T; fetchedAt: number; stale: boolean; upstreamFailing: boolean } | { ok: false; reason: string };

export interface NewsClientOptions {
  baseUrl: string;
  /** Every request gives up after this long (the original had no timeout). */
  timeoutMs?: number;
  /** A cached answer is served without asking the API for this long. */
  freshForMs?: number;
  /** After a failed refresh, wait this long before asking the API again. */
  retryAfterMs?: number;
  /** Bodies larger than this are treated as broken. */
  maxBytes?: number;
}

class UpstreamError extends Error {
  name = "UpstreamError";
}

// ---------------------------------------------------------------------------
// Validation of untrusted data

const CATEGORY_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An absolute http(s) URL in canonical form, or null: no javascript:, data: or relative URLs. */
export function safeHttpUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  return url.href;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Feed text as plain text: tags dropped, common entities decoded, whitespace collapsed. React escapes the rest. */
export function plainText(value: unknown, maxLength: number): string {
  if (typeof value !== "string") return "";
  const text = value
    .replace(/<[^>]*>?/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
      if (code[0] !== "#") return ENTITIES[code.toLowerCase()] ?? entity;
      const point = code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return point > 0 && point <= 0x10ffff && (point < 0xd800 || point > 0xdfff) ? String.fromCodePoint(point) : "";
    })
    // A decoded "&lt;script&gt;" must not become markup-looking text either.
    .replace(/<[^>]*>?/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > maxLength ? `${text.slice(0, maxLength - 1).trimEnd()}…` : text;
}

function isoDate(value: unknown): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The usable posts of a category response; throws UpstreamError for any other shape. */
export function parsePostsResponse(body: unknown): NewsPost[] {
  if (!isRecord(body)) throw new UpstreamError("the response is not an object");
  if (body.success !== true) {
    throw new UpstreamError(`the API reported a failure: ${plainText(body.message, 200) || "no message"}`);
  }
  if (!isRecord(body.data) || !Array.isArray(body.data.posts)) throw new UpstreamError("the response has no data.posts");
  const posts: NewsPost[] = [];
  for (const raw of body.data.posts) {
    if (!isRecord(raw)) continue;
    const link = safeHttpUrl(raw.link);
    const title = plainText(raw.title, 240);
    // A post nobody can open or recognise is not worth a card.
    if (!link || !title) continue;
    posts.push({
      title,
      link,
      description: plainText(raw.description, 500),
      thumbnail: safeHttpUrl(raw.thumbnail),
      pubDate: isoDate(raw.pubDate),
    });
  }
  return posts;
}

/** "gayaHidup" → "Gaya Hidup". */
function categoryLabel(name: string): string {
  const words = name
    .replace(/[_-]+/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(" ");
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(" ");
}

/** The categories of the station's source from the API root; throws UpstreamError for any other shape. */
export function parseCategoriesResponse(body: unknown): NewsCategory[] {
  if (!isRecord(body) || !Array.isArray(body.endpoints)) throw new UpstreamError("the index has no endpoints");
  const endpoints = body.endpoints.filter(isRecord);
  const source = endpoints.find((endpoint) => endpoint.name === NEWS_SOURCE) ?? body.endpoints[2];
  if (!isRecord(source) || !Array.isArray(source.paths)) throw new UpstreamError("the index has no news source paths");
  const seen = new Set<string>();
  const categories: NewsCategory[] = [];
  for (const path of source.paths) {
    const name = isRecord(path) && typeof path.name === "string" ? path.name.trim() : "";
    // Names become part of request paths and query strings, so only plain words pass.
    if (!CATEGORY_NAME.test(name) || seen.has(name)) continue;
    seen.add(name);
    categories.push({ name, label: categoryLabel(name) });
  }
  if (categories.length === 0) throw new UpstreamError("the index lists no categories");
  return categories;
}

// ---------------------------------------------------------------------------
// Fetching, with a timeout and a size cap

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const body = await readResponseWithin(response, maxBytes);
  if (body === null) throw new UpstreamError("the response is too large");
  return body.toString("utf8");
}

async function fetchJson(url: string, timeoutMs: number, maxBytes: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: "application/json" },
      redirect: "follow",
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new UpstreamError(timedOut ? `no answer within ${timeoutMs} ms` : `the request failed (${String(error)})`);
  }
  let text: string;
  try {
    text = await readCapped(response, maxBytes);
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    throw new UpstreamError(`no complete answer within ${timeoutMs} ms`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError(`HTTP ${response.status} with a body that is not JSON`);
  }
  // The API answers unknown paths with 404 and a { success: false } body: report the status.
  if (!response.ok) throw new UpstreamError(`HTTP ${response.status}`);
  return body;
}

// ---------------------------------------------------------------------------
// Stale-while-revalidate cache

interface CacheEntry {
  value?: unknown;
  fetchedAt: number;
  lastFailureAt: number;
  lastFailure?: string;
  inFlight?: Promise<void>;
}

export function createNewsClient(options: NewsClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 4000;
  const freshForMs = options.freshForMs ?? 5 * 60_000;
  const retryAfterMs = options.retryAfterMs ?? 30_000;
  const maxBytes = options.maxBytes ?? 2_000_000;
  const entries = new Map<string, CacheEntry>();

  function refresh<T>(entry: CacheEntry, path: string, parse: (body: unknown) => T): Promise<void> {
    // One request per path at a time, however many listeners are waiting.
    entry.inFlight ??= fetchJson(`${baseUrl}${path}`, timeoutMs, maxBytes)
      .then((body) => {
        entry.value = parse(body);
        entry.fetchedAt = Date.now();
        entry.lastFailure = undefined;
      })
      .catch((error: unknown) => {
        entry.lastFailureAt = Date.now();
        entry.lastFailure = error instanceof Error ? error.message : String(error);
      })
      .finally(() => {
        entry.inFlight = undefined;
      });
    return entry.inFlight;
  }

  async function cached<T>(path: string, parse: (body: unknown) => T): Promise<Cached<T>> {
    let entry = entries.get(path);
    if (!entry) {
      entry = { fetchedAt: 0, lastFailureAt: 0 };
      entries.set(path, entry);
    }
    const now = Date.now();
    if (entry.value === undefined) {
      // Nothing to fall back on: wait for the API (bounded by the timeout), unless it just failed.
      if (now - entry.lastFailureAt >= retryAfterMs || entry.inFlight) await refresh(entry, path, parse);
    } else if (now - entry.fetchedAt >= freshForMs && now - entry.lastFailureAt >= retryAfterMs) {
      void refresh(entry, path, parse);
    }
    if (entry.value === undefined) return { ok: false, reason: entry.lastFailure ?? "no answer yet" };
    return {
      ok: true,
      value: entry.value as T,
      fetchedAt: entry.fetchedAt,
      stale: Date.now() - entry.fetchedAt >= freshForMs,
      upstreamFailing: entry.lastFailure !== undefined,
    };
  }

  return {
    baseUrl,
    /** The categories of the station's source, from the API root. */
    categories: () => cached("/", parseCategoriesResponse),
    /** The posts of one category; `name` must come from `categories()`. */
    posts: (category: string) => {
      if (!CATEGORY_NAME.test(category)) throw new Error(`not a category name: ${category}`);
      return cached(`/${NEWS_SOURCE}/${category}/`, parsePostsResponse);
    },
    /** Waits for background refreshes (tests, shutdown). */
    settled: () => Promise.all([...entries.values()].map((entry) => entry.inFlight)).then(() => undefined),
    /** Treats every cached answer as old, so the next read refreshes it. */
    expire: () => {
      for (const entry of entries.values()) {
        entry.fetchedAt = 0;
        entry.lastFailureAt = 0;
      }
    },
  };
}

export type NewsClient = ReturnType<typeof createNewsClient>;

/** The process's client for NEWS_API_URL; its cache lives as long as the process. */
export function newsClient(): NewsClient {
  const baseUrl = getConfig().newsApiUrl;
  const client = singleton("newsClient", () => createNewsClient({ baseUrl }));
  if (client.baseUrl === baseUrl.replace(/\/+$/, "")) return client;
  const replacement = createNewsClient({ baseUrl });
  setSingleton("newsClient", replacement);
  return replacement;
}

/** Drops the process's cached news (tests start from a cold cache with this). */
export function clearNewsCache(): void {
  setSingleton("newsClient", undefined);
}

// ---------------------------------------------------------------------------
// What the pages need

/** "Senin, 5 Mei 2025 pukul 14.30 WIB" (in "id-ID"), in the station's time zone and the page's locale. */
export function formatNewsDate(iso: string, timeZone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(new Date(iso));
}

export interface NewsCard extends NewsPost {
  /** The human date, already formatted on the server (no hydration drift). */
  dateLabel: string | null;
}

export type CategoryChoice =
  | { kind: "latest" }
  | { kind: "category"; category: NewsCategory }
  | { kind: "unknown"; name: string }
  /** A category was asked for while the category list itself is unavailable. */
  | { kind: "unverifiable"; name: string };

export type NewsList =
  | {
      available: true;
      cards: NewsCard[];
      /** The API failed on the last try: these are the last good posts, from `fetchedAt`. */
      fromCache: boolean;
      fetchedAt: string;
      /** "5 Mei 2025 14.30": when the shown posts were fetched, for the notice shown with `fromCache`. */
      fetchedAtLabel: string;
    }
  | { available: false };

export interface NewsPage {
  categories: NewsCategory[];
  choice: CategoryChoice;
  /** Null when the asked-for category could not be matched, so there is nothing to list. */
  posts: NewsList | null;
}

export async function listNewsCategories(): Promise<NewsCategory[]> {
  const result = await newsClient().categories();
  return result.ok ? result.value : [];
}

function toNewsList(result: Cached<NewsPost[]>, locale: string): NewsList {
  if (!result.ok) return { available: false };
  const timeZone = getConfig().stationTimezone;
  return {
    available: true,
    fromCache: result.upstreamFailing,
    fetchedAt: new Date(result.fetchedAt).toISOString(),
    fetchedAtLabel: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }).format(result.fetchedAt),
    cards: result.value.slice(0, NEWS_POST_LIMIT).map((post) => ({
      ...post,
      dateLabel: post.pubDate ? formatNewsDate(post.pubDate, timeZone, locale) : null,
    })),
  };
}

/**
 * The /news page: the first posts of the chosen category (or the latest), and the category list.
 * Dates are formatted here, in the page's `locale`, so server and browser show the same text.
 */
export async function getNewsPage(categoryParam: string | null, locale: string): Promise<NewsPage> {
  const client = newsClient();
  const asked = categoryParam?.trim() || LATEST_CATEGORY;
  const [categoriesResult, latest] = await Promise.all([client.categories(), asked === LATEST_CATEGORY ? client.posts(LATEST_CATEGORY) : null]);
  const categories = categoriesResult.ok ? categoriesResult.value : [];
  if (latest) return { categories, choice: { kind: "latest" }, posts: toNewsList(latest, locale) };

  const category = categories.find((c) => c.name === asked);
  if (category) return { categories, choice: { kind: "category", category }, posts: toNewsList(await client.posts(category.name), locale) };
  const name = plainText(asked, 60);
  return { categories, choice: categoriesResult.ok ? { kind: "unknown", name } : { kind: "unverifiable", name }, posts: null };
}
