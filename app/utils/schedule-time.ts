/**
 * Station wall-clock values as the schedule stores them ("YYYY-MM-DD",
 * "HH:MM", "YYYY-MM-DDTHH:MM"), shared by the server and the pages.
 */
import { wallTimeAt, zoneOffsetMinutes, type WallTime } from "./time-zone";

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "YYYY-MM-DDTHH:MM" of a wall time. */
export function wallKey(w: WallTime): string {
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** Parses "YYYY-MM-DDTHH:MM" (seconds ignored); null when it is not a real date and time. */
export function parseWallKey(value: string): WallTime | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || year < 2000 || year > 2200) return null;
  return { year, month, day, hour, minute, second: 0 };
}

/** A wall time written as if it were UTC: how recurrence rules are expanded without a zone ("floating" times). */
export function floatingMs(w: WallTime): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

/**
 * The instant a station clock shows `w`. RFC 5545 3.3.5's rule, which calendar
 * apps follow too: a time skipped when clocks go forward (02:30 on the
 * spring-forward night in Europe) is read with the offset before the gap, so
 * it airs at 03:30 local; a time that occurs twice (autumn) is the first one.
 */
export function instantOfStationWall(w: WallTime, timeZone: string): Date {
  return new Date(instantOfFloating(floatingMs(w), timeZone));
}

const DAY_MS = 86_400_000;

/** instantOfStationWall for a floating time (ms), as epoch ms. */
export function instantOfFloating(asUtc: number, timeZone: string): number {
  // The offsets a day before and after (zones change at most once within that): the larger one
  // first, since it gives the earlier instant, the first of a time that occurs twice.
  const before = cachedOffsetMinutes(asUtc - DAY_MS, timeZone);
  const after = cachedOffsetMinutes(asUtc + DAY_MS, timeZone);
  for (const offset of before >= after ? [before, after] : [after, before]) {
    const instant = asUtc - offset * 60_000;
    if (cachedOffsetMinutes(instant, timeZone) === offset) return instant;
  }
  // No instant shows this time (clocks jumped over it): read with the offset before the jump.
  return asUtc - before * 60_000;
}

const QUARTER_HOUR_MS = 900_000;
const offsetCache = new Map<string, Map<number, number>>();

// Zones change offset only on quarter hours, so one Intl lookup serves a whole quarter hour
// (expanding a year of airings otherwise spends most of its time in Intl).
function cachedOffsetMinutes(ms: number, timeZone: string): number {
  let zone = offsetCache.get(timeZone);
  if (!zone) {
    zone = new Map();
    offsetCache.set(timeZone, zone);
  }
  const bucket = Math.floor(ms / QUARTER_HOUR_MS);
  let offset = zone.get(bucket);
  if (offset === undefined) {
    offset = zoneOffsetMinutes(new Date(bucket * QUARTER_HOUR_MS), timeZone);
    if (zone.size > 200_000) zone.clear();
    zone.set(bucket, offset);
  }
  return offset;
}

export function wallKeyAt(instant: Date, timeZone: string): string {
  return wallKey(wallTimeAt(instant, timeZone));
}

/** "YYYY-MM-DD" of the day a clock in `timeZone` shows at `instant`. */
export function dayKeyAt(instant: Date, timeZone: string): string {
  return wallKeyAt(instant, timeZone).slice(0, 10);
}

/** Whether `timeZone` is an IANA zone name this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(timeZone)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The zones offered by zone pickers. */
export function timeZoneNames(): string[] {
  const names = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
  return names.includes("UTC") ? names : ["UTC", ...names];
}
