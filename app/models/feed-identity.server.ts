import { canonicalOrigin } from "./site-origin.server";
import { randomUUID } from "node:crypto";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { cachedRead } from "~/services/read-cache.server";
import { podcastGuid } from "~/services/feeds.server";
import { parseForm } from "~/utils/forms/form";
import { STATION_EMAIL_INVALID, stationEmailSchema } from "~/utils/forms/station";
import { activityMessage, logActivity, type AdminActor } from "./activity.server";

/*
 * What makes the podcast the same podcast for directories and apps, whatever
 * host name, proxy or later public address it is fetched under:
 * - podcast:guid is stored once: a UUIDv5 of the canonical feed URL when the
 *   canonical origin is known the first time it is needed, else a random UUID.
 *   It is never recomputed, so a later PUBLIC_URL or a moved site keeps it.
 * - the canonical origin the feed was last published under is stored too;
 *   when it changes, the old one is remembered: requests for the feed under
 *   an old address are redirected, and the feed says itunes:new-feed-url.
 * Episode guids and event UIDs are columns of their own rows (set on insert).
 * All of this lives in the Setting table, so export/import carries it.
 */

const GUID_KEY = "podcast.guid";
const ORIGIN_KEY = "podcast.feedOrigin";
const FORMER_ORIGINS_KEY = "podcast.formerFeedOrigins";
const EMAIL_KEY = "station.email";
// Serialises the first write of the identity between app instances.
const IDENTITY_LOCK = 5_417_018;

export const FEED_PATH = "/podcast.xml";

/**
 * The station's canonical origin: PUBLIC_URL, else the origin an admin confirmed.
 * (When the security branch is merged this is its `canonicalOrigin()`.)
 */
export interface FeedIdentity {
  guid: string;
  /** The origin every URL in the feed uses. */
  baseUrl: string;
  /** Where the feed now lives when it has moved from an earlier address, else null. */
  newFeedUrl: string | null;
  /** Set when this request came in under a former address: the feed's new URL. */
  redirectTo: string | null;
}

async function readSettings(keys: string[]): Promise<Map<string, string>> {
  const rows = await db().setting.findMany({ where: { key: { in: keys } } });
  return new Map(rows.map((row) => [row.key, row.value]));
}

function formerOrigins(settings: Map<string, string>): string[] {
  try {
    const value = JSON.parse(settings.get(FORMER_ORIGINS_KEY) ?? "[]") as unknown;
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
  } catch {
    return [];
  }
}

/** Stores the guid and canonical origin the first time, and remembers a changed origin. */
async function recordIdentity(canonical: string | null): Promise<Map<string, string>> {
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${IDENTITY_LOCK})`;
    const rows = await tx.setting.findMany({ where: { key: { in: [GUID_KEY, ORIGIN_KEY, FORMER_ORIGINS_KEY] } } });
    const settings = new Map(rows.map((row) => [row.key, row.value]));
    const set = async (key: string, value: string) => {
      await tx.setting.upsert({ where: { key }, create: { key, value }, update: { value } });
      settings.set(key, value);
    };
    if (!settings.has(GUID_KEY)) await set(GUID_KEY, canonical ? podcastGuid(`${canonical}${FEED_PATH}`) : randomUUID());
    const stored = settings.get(ORIGIN_KEY);
    if (canonical && stored !== canonical) {
      if (stored) {
        const former = formerOrigins(settings).filter((origin) => origin !== canonical && origin !== stored);
        await set(FORMER_ORIGINS_KEY, JSON.stringify([...former, stored]));
      }
      await set(ORIGIN_KEY, canonical);
    }
    return settings;
  });
}

/** The feed's identity for one request (the request's own origin is used only while no canonical origin exists). */
export async function feedIdentity(requestUrl: string): Promise<FeedIdentity> {
  const canonical = await canonicalOrigin();
  let settings = await readSettings([GUID_KEY, ORIGIN_KEY, FORMER_ORIGINS_KEY]);
  if (!settings.has(GUID_KEY) || (canonical && settings.get(ORIGIN_KEY) !== canonical)) settings = await recordIdentity(canonical);
  const requestOrigin = new URL(requestUrl).origin;
  // Hosts, not origins: behind a TLS-terminating proxy the request itself arrives as http.
  const requestHost = new URL(requestUrl).host;
  const former = formerOrigins(settings);
  const cameInUnderFormerAddress =
    canonical !== null && requestHost !== new URL(canonical).host && former.some((origin) => new URL(origin).host === requestHost);
  const baseUrl = canonical ?? requestOrigin;
  return {
    guid: settings.get(GUID_KEY)!,
    baseUrl,
    newFeedUrl: canonical && former.length > 0 ? `${canonical}${FEED_PATH}` : null,
    redirectTo: cameInUnderFormerAddress ? `${canonical}${FEED_PATH}` : null,
  };
}

// ---------------------------------------------------------------- the owner's email

/** The feed owner's address: STATION_EMAIL, else the one an admin gave on the dashboard, else null. */
export async function stationEmail(): Promise<string | null> {
  const configured = getConfig().station.email;
  if (configured) return configured;
  return cachedRead("stationEmail", async () => (await db().setting.findUnique({ where: { key: EMAIL_KEY } }))?.value ?? null);
}

/** True when the dashboard should ask for the owner's address (nothing configured or stored). */
export async function needsStationEmail(): Promise<boolean> {
  return (await stationEmail()) === null;
}

export class StationEmailError extends Error {
  name = "StationEmailError";
}

export async function saveStationEmail(text: string, actor: AdminActor): Promise<string> {
  const check = parseForm(stationEmailSchema, { email: text }, STATION_EMAIL_INVALID);
  if (!check.ok) throw new StationEmailError(check.errors.email);
  const { email } = check.value;
  await db().$transaction(async (tx) => {
    await tx.setting.upsert({ where: { key: EMAIL_KEY }, create: { key: EMAIL_KEY, value: email }, update: { value: email } });
    await logActivity(tx, actor, "station.email", activityMessage("admin.activityStationEmail", { email }));
  });
  return email;
}
