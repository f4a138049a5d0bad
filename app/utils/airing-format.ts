/**
 * Time and day labels for airings, in any zone (server and browser share them), and the zone a
 * listener reads them in. One module, so a page showing airings loads one small file, not two.
 */
import { useCallback, useEffect, useState } from "react";

const formats = new Map<string, Intl.DateTimeFormat>();

// The locale defaults to English's ("en-GB"): callers pass `locale` from useT() or the translator.
const OPTIONS: Record<"time" | "zone" | "day" | "weekday" | "date", Omit<Intl.DateTimeFormatOptions, "timeZone">> = {
  time: { hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
  zone: { timeZoneName: "short" },
  day: { year: "numeric", month: "2-digit", day: "2-digit" },
  weekday: { weekday: "long" },
  date: { weekday: "long", day: "numeric", month: "long" },
};

function format(timeZone: string, kind: keyof typeof OPTIONS, locale: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}|${locale}`;
  let result = formats.get(key);
  if (!result) {
    result = new Intl.DateTimeFormat(locale, { ...OPTIONS[kind], timeZone });
    formats.set(key, result);
  }
  return result;
}

/** "20:00" in `timeZone` ("20.00" in Indonesian). */
export function timeIn(instant: Date | string, timeZone: string, locale = "en-GB"): string {
  return format(timeZone, "time", locale).format(new Date(instant));
}

const WEEK_MS = 7 * 24 * 3600_000;

/**
 * The day of `instant` in `timeZone` when it is not today's ("Thursday"; a week or more ahead
 * "Thursday 3 December"), or null on the same day: a time alone reads as today's.
 */
export function dayUnlessToday(instant: Date | string, timeZone: string, locale = "en-GB", now: Date = new Date()): string | null {
  const when = new Date(instant);
  const day = format(timeZone, "day", "en-GB");
  if (day.format(when) === day.format(now)) return null;
  return format(timeZone, Math.abs(when.getTime() - now.getTime()) >= WEEK_MS - 24 * 3600_000 ? "date" : "weekday", locale).format(when);
}

/** "CET", "GMT+7": the zone's short name at `instant`. */
export function zoneAbbreviation(instant: Date | string, timeZone: string, locale = "en-GB"): string {
  return (
    format(timeZone, "zone", locale)
      .formatToParts(new Date(instant))
      .find((part) => part.type === "timeZoneName")?.value ?? timeZone
  );
}

// ---------------------------------------------------------------- the listener's zone

const STORAGE_KEY = "listener-time-zone";

function knownZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone a listener reads times in: what the server rendered (`initial`,
 * the station's zone or the picker's choice) until the page runs, then the
 * zone they chose before (remembered in localStorage) or their browser's own.
 * `fromUrl` (a zone picked by form) wins over both.
 */
export function useListenerTimeZone(initial: string, fromUrl: string | null): [string, (zone: string) => void] {
  const [zone, setZone] = useState(initial);
  useEffect(() => {
    if (knownZone(fromUrl)) {
      setZone(fromUrl);
      return;
    }
    let saved: string | null = null;
    try {
      saved = window.localStorage.getItem(STORAGE_KEY);
    } catch {
      // Storage can be blocked; the browser's zone still applies.
    }
    const detected = Intl.DateTimeFormat().resolvedOptions().timeZone;
    setZone(knownZone(saved) ? saved : knownZone(detected) ? detected : initial);
  }, [initial, fromUrl]);
  const choose = useCallback((next: string) => {
    if (!knownZone(next)) return;
    setZone(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Not remembered, but shown.
    }
  }, []);
  return [zone, choose];
}
