import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { announceContentChanged } from "~/services/realtime.server";
import { singleton } from "~/services/singleton.server";
import { parseForm } from "~/utils/forms/form";
import { SITE_ORIGIN_INVALID, siteOriginSchema } from "~/utils/forms/station";
import { activityMessage, logActivity, type AdminActor } from "./activity.server";

/*
 * The site's one canonical origin, used for every absolute URL (canonical and
 * og: tags, feeds, the OAuth callback, share links): PUBLIC_URL, else the
 * origin an admin confirmed once on the dashboard. Until one exists, absolute
 * URLs come from the request's own (validated) Host, and the page cache keeps
 * such renders per origin.
 */

const SETTING_KEY = "site.origin";
// Several instances share the setting; each re-reads it at most this often.
const REFRESH_MS = 10_000;

interface StoredOrigin {
  value: string | null;
  readAt: number;
}

function cache(): { current: StoredOrigin | null } {
  return singleton("siteOriginCache", () => ({ current: null as StoredOrigin | null }));
}

async function storedOrigin(): Promise<string | null> {
  const cached = cache().current;
  if (cached && Date.now() - cached.readAt < REFRESH_MS) return cached.value;
  const row = await db().setting.findUnique({ where: { key: SETTING_KEY } });
  cache().current = { value: row?.value ?? null, readAt: Date.now() };
  return cache().current!.value;
}

/** The canonical origin when one is configured or confirmed, else null. */
export async function canonicalOrigin(): Promise<string | null> {
  const configured = getConfig().publicUrl;
  if (configured) return new URL(configured).origin;
  return storedOrigin();
}

/** The origin absolute URLs use: the canonical one, else the request's own (`requestUrl`, whose Host server/security.ts checked). */
export async function siteOrigin(requestUrl: string): Promise<string> {
  return (await canonicalOrigin()) ?? new URL(requestUrl).origin;
}

/** Its message is a key of the "forms" messages, for the admin's language. */
export class SiteOriginError extends Error {
  name = "SiteOriginError";
}

/** Stores the origin an admin confirmed (PUBLIC_URL still wins when set). */
export async function confirmSiteOrigin(text: string, actor: AdminActor): Promise<string> {
  const check = parseForm(siteOriginSchema, { origin: text }, SITE_ORIGIN_INVALID);
  if (!check.ok) throw new SiteOriginError(check.errors.origin);
  const { origin } = check.value;
  await db().$transaction(async (tx) => {
    await tx.setting.upsert({ where: { key: SETTING_KEY }, create: { key: SETTING_KEY, value: origin }, update: { value: origin } });
    await logActivity(tx, actor, "site.origin", activityMessage("admin.activitySiteOrigin", { origin }));
  });
  cache().current = { value: origin, readAt: Date.now() };
  // Cached pages carry absolute URLs: drop them everywhere.
  announceContentChanged();
  return origin;
}
