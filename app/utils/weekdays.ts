import type { Translator } from "~/i18n/translate";

/** Weekdays as iCalendar names them (RRULE BYDAY); shared by the schedule model and its admin page's form. */
export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

// 1 January 2024 was a Monday: WEEKDAYS[i] falls on day 1 + i of that month.
const MONDAY = Date.UTC(2024, 0, 1);

/** "Monday", "Senin": the weekday's name in `locale`. */
export function weekdayName(day: Weekday, locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(MONDAY + WEEKDAYS.indexOf(day) * 86_400_000);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** "Monday 23 November", "Senin 23 November": the day of `instant` in `timeZone`, in `locale`. */
export function dayLabel(instant: Date | string, timeZone: string, locale: string): string {
  const key = `${locale}|${timeZone}`;
  let format = dayFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long", timeZone });
    dayFormats.set(key, format);
  }
  return format.format(new Date(instant)).replace(",", "");
}

/** "26 Nov 2026", "26 Nov 2026": a calendar date ("2026-11-26") in `locale`, not as ISO (anything else stays as it is). */
export function dateLabel(isoDate: string, locale: string): string {
  const noon = new Date(`${isoDate}T12:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate) || Number.isNaN(noon.getTime())) return isoDate;
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(noon);
}

/** "19:30", "19.30": a time of day ("19:30") in `locale` (anything else stays as it is). */
export function timeLabel(time: string, locale: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) return time;
  return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" }).format(
    Date.UTC(2024, 0, 1, Number(match[1]), Number(match[2])),
  );
}

/** "27 Nov 2026 09:00", "27 Nov 2026 09.00": a wall time ("2026-11-27T09:00") in `locale`, not as ISO. */
export function wallLabel(wall: string, locale: string): string {
  const [date, time] = wall.split("T");
  return time === undefined ? dateLabel(date, locale) : `${dateLabel(date, locale)} ${timeLabel(time, locale)}`;
}

/** The slot's days of the week (from its RRULE's BYDAY), in week order. */
export function slotDays(rrule: string | null): Weekday[] {
  const byday = /BYDAY=([A-Z,]+)/.exec(rrule ?? "")?.[1] ?? "";
  return WEEKDAYS.filter((day) => byday.split(",").includes(day));
}

export interface SlotRule {
  startDate: string;
  startTime: string;
  durationMinutes: number;
  rrule: string | null;
  endDate: string | null;
}

/** A slot in words ("every Monday at 20:00 for 60 min, from 5 Jan 2026"), for the activity log and the pages. */
export function describeSlot(slot: SlotRule, { t, locale }: Pick<Translator, "t" | "locale">): string {
  const time = { time: timeLabel(slot.startTime, locale), minutes: slot.durationMinutes };
  if (!slot.rrule) return t("schedule.slotOnce", { date: dateLabel(slot.startDate, locale), ...time });
  const days = slotDays(slot.rrule)
    .map((day) => weekdayName(day, locale))
    .join(", ");
  return slot.endDate
    ? t("schedule.slotWeeklyUntil", { days, ...time, startDate: dateLabel(slot.startDate, locale), endDate: dateLabel(slot.endDate, locale) })
    : t("schedule.slotWeekly", { days, ...time, startDate: dateLabel(slot.startDate, locale) });
}
