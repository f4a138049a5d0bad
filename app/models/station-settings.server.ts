import { getBaseConfig, getConfig, setStoredSettings, SETTING_VARIABLES, type SettingName, type StoredSettings } from "~/services/config.server";
import { db } from "~/services/db.server";
import { peekSingleton, singleton } from "~/services/singleton.server";
import { announceContentChanged, announceSettingsChanged, onSettingsAnnounced } from "~/services/realtime.server";
import { storedSettingsSchema, type StationSettingsValues } from "~/utils/forms/settings";
import { activityMessage, logActivity, type AdminActor } from "./activity.server";

/**
 * The station settings an admin saves on /settings-admin: one Setting row of JSON, checked by the
 * form's own schema when written and again when read. Every instance keeps the row in memory
 * (config.server.ts's getConfig overlays it), so the many synchronous readers of the station's name
 * or time zone stay synchronous: the snapshot is read before the server listens, again whenever an
 * instance announces a change through the realtime adapter, and every minute in case an
 * announcement was missed (an instance reconnecting to PostgreSQL).
 */

const SETTINGS_KEY = "station.settings";
const REREAD_EVERY_MS = 60_000;

type Listener = (previous: StoredSettings | undefined, current: StoredSettings | undefined) => void;
const listeners = () => singleton("stationSettingsListeners", () => new Set<Listener>());

/** Runs `listener` whenever this instance's settings change (saved here, or read after another instance saved). */
export function onStationSettingsApplied(listener: Listener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

function apply(stored: StoredSettings | undefined): void {
  const previous = peekSingleton<StoredSettings>("storedSettings");
  if (JSON.stringify(previous) === JSON.stringify(stored)) return;
  setStoredSettings(stored);
  for (const listener of listeners()) listener(previous, stored);
}

async function readStoredSettings(log: (line: string) => void): Promise<StoredSettings | undefined> {
  const row = await db().setting.findUnique({ where: { key: SETTINGS_KEY } });
  if (!row) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.value);
  } catch {
    parsed = null;
  }
  const check = storedSettingsSchema.safeParse(parsed);
  if (check.success) return check.data;
  // An archive from a newer version, or a hand-edited row: the station runs on its defaults rather than not at all.
  log(`Station settings: the stored settings are not valid and are not used (${check.error.issues[0]?.message ?? "?"})`);
  return undefined;
}

/** Reads the stored settings into this instance's snapshot (at start, on an announcement, every minute). */
export async function loadStationSettings(log: (line: string) => void = () => {}): Promise<void> {
  apply(await readStoredSettings(log));
}

/** Keeps the snapshot current: announced changes at once, and a re-read every minute. Returns the stop function. */
export function followStationSettings(log: (line: string) => void): () => void {
  const reload = () => void loadStationSettings(log).catch((error: Error) => log(`Station settings: could not read them (${error.message})`));
  const stopListening = onSettingsAnnounced(reload);
  const timer = setInterval(reload, REREAD_EVERY_MS);
  timer.unref();
  return () => {
    stopListening();
    clearInterval(timer);
    setStoredSettings(undefined);
  };
}

/** True once an admin has saved the settings (until then admin pages invite them to). */
export function stationSettingsSaved(): boolean {
  return peekSingleton<StoredSettings>("storedSettings") !== undefined;
}

/** Each setting's value in force, and the variable that fixes it when the environment sets it. */
export function describeStationSettings() {
  const config = getConfig();
  const fixed = new Set(getBaseConfig().fixedSettings);
  const values: Required<StationSettingsValues> = {
    name: config.station.name,
    tagline: config.station.tagline,
    logoUrl: config.station.logoUrl,
    accentColor: config.station.accentColor,
    timeZone: config.stationTimezone,
    language: config.stationLanguage,
    email: config.station.email,
    socialLinks: config.station.socialLinks,
    streamUrl: config.streamUrl,
    rewindHours: config.rewindHours,
    historyDays: config.historyDays,
  };
  const fixedBy = Object.fromEntries(
    (Object.keys(SETTING_VARIABLES) as SettingName[]).map((name) => [name, fixed.has(name) ? SETTING_VARIABLES[name] : null]),
  ) as Record<SettingName, string | null>;
  return { values, fixedBy };
}

/**
 * Saves the settings the environment leaves free (fixed ones are dropped), in this instance at
 * once and in every other through the realtime adapter; the activity log says who.
 */
export async function saveStationSettings(values: StationSettingsValues, actor: AdminActor): Promise<StoredSettings> {
  const fixed = new Set(getBaseConfig().fixedSettings);
  const previous = (await readStoredSettings(() => {})) ?? {};
  const next = storedSettingsSchema.parse({
    ...previous,
    ...Object.fromEntries(Object.entries(values).filter(([name, value]) => value !== undefined && !fixed.has(name as SettingName))),
  });
  const value = JSON.stringify(next);
  const changed = Object.keys(next).filter((name) => JSON.stringify(next[name as SettingName]) !== JSON.stringify(previous[name as SettingName]));
  await db().$transaction(async (tx) => {
    await tx.setting.upsert({ where: { key: SETTINGS_KEY }, create: { key: SETTINGS_KEY, value }, update: { value } });
    await logActivity(tx, actor, "station.settings", activityMessage("admin.activityStationSettings", { names: changed.join(", ") || "-" }));
  });
  apply(next);
  announceSettingsChanged();
  // Rendered pages name the station: every instance's kept pages go (the others once they have read the row).
  announceContentChanged();
  return next;
}
