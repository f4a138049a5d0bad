/**
 * Wall-clock time in a named IANA zone (the station's STATION_TIMEZONE),
 * computed with Intl so no time-zone database ships with the app.
 */

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function offsetFormat(timeZone: string): Intl.DateTimeFormat {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormats.set(timeZone, format);
  }
  return format;
}

/** Minutes east of UTC in `timeZone` at `instant` (Asia/Jakarta: 420). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const name =
    offsetFormat(timeZone)
      .formatToParts(instant)
      .find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === "-" ? -minutes : minutes;
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** What a clock in `timeZone` shows at `instant`. */
export function wallTimeAt(instant: Date, timeZone: string): WallTime {
  const shifted = new Date(instant.getTime() + zoneOffsetMinutes(instant, timeZone) * 60_000);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
  };
}

/**
 * The instant a clock in `timeZone` shows `wall`. In a gap (clocks jumping
 * forward) the later offset applies; in an overlap, the earlier instant.
 */
export function instantOfWallTime(wall: WallTime, timeZone: string): Date {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  // Two passes settle on the offset in force at the result, also next to a transition.
  let instant = asUtc - zoneOffsetMinutes(new Date(asUtc), timeZone) * 60_000;
  instant = asUtc - zoneOffsetMinutes(new Date(instant), timeZone) * 60_000;
  return new Date(instant);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "YYYY-MM-DDTHH:MM": the value of an `<input type="datetime-local">` in `timeZone`. */
export function toDateTimeLocal(instant: Date, timeZone: string): string {
  const w = wallTimeAt(instant, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** Parses a datetime-local value ("YYYY-MM-DDTHH:MM[:SS]") as wall time in `timeZone`; null when invalid. */
export function fromDateTimeLocal(value: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const check = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Rejects 2026-02-30 and 24:00 rather than rolling them over.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  return instantOfWallTime({ year, month, day, hour, minute, second }, timeZone);
}
