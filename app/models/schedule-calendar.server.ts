import { serverI18n, stationTranslator } from "~/i18n/catalogs.server";
import type { Language } from "~/i18n/languages";
import { translator } from "~/i18n/translate";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { buildVTimezone, escapeIcsText, foldIcsLine, offsetTransitions } from "~/services/feeds.server";
import { instantOfStationWall, parseWallKey, wallKey, wallKeyAt } from "~/utils/schedule-time";
import { wallTimeAt } from "~/utils/time-zone";
import { slotAirsAt } from "./schedule.server";
import { getStationIdentity } from "./station.server";

/*
 * The programme as iCalendar (RFC 5545): one VEVENT per slot with its RRULE and
 * EXDATEs in the station's zone (with a VTIMEZONE), so a calendar app keeps
 * showing future airings without downloading again; moved airings and one-off
 * specials are VEVENTs of their own.
 */

// Open-ended weekly rules go on for ever; the VTIMEZONE spells out this many years ahead.
const ZONE_YEARS_AHEAD = 10;

/**
 * Airings of a rule whose wall-clock start does not exist (skipped when the
 * clocks go forward). Calendar apps disagree on those (ical.js moves them an
 * hour earlier, RFC 5545 an hour later), so the feed takes them out of the
 * rule and states their instant in UTC, as the station airs them.
 */
function skippedStarts(slot: Parameters<typeof slotAirsAt>[0] & { exdates: string[] }, timeZone: string, gaps: { at: Date; from: number }[]): string[] {
  return gaps.flatMap((gap) => {
    const day = wallKey(wallTimeAt(new Date(gap.at.getTime() + gap.from * 60_000), "UTC")).slice(0, 10);
    const wall = `${day}T${slot.startTime}`;
    const exists = wallKeyAt(instantOfStationWall(parseWallKey(wall)!, timeZone), timeZone) === wall;
    return !exists && !slot.exdates.includes(wall) && slotAirsAt(slot, wall) ? [wall] : [];
  });
}

const compact = (wall: string) => wall.replace(/[-:]/g, "") + "00";
const utc = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/**
 * The whole programme (no slug), one show's airings, or a listener's followed shows with an alarm
 * `alarmMinutes` before each airing (their reminders feed), as an iCalendar document.
 */
export async function buildScheduleCalendar(
  baseUrl: string,
  which?: string | { showIds: string[]; alarmMinutes: number; language: Language },
): Promise<string | null> {
  const timeZone = getConfig().stationTimezone;
  const station = getStationIdentity();
  const slug = typeof which === "string" ? which : undefined;
  const followed = typeof which === "object" ? which : null;
  const shows = await db().show.findMany({
    where: slug ? { slug } : followed ? { id: { in: followed.showIds } } : {},
    orderBy: { name: "asc" },
    select: {
      slug: true,
      name: true,
      description: true,
      updatedAt: true,
      slots: {
        select: { id: true, startDate: true, startTime: true, durationMinutes: true, rrule: true, endDate: true, exdates: true, updatedAt: true, moves: true },
      },
    },
  });
  if (slug && shows.length === 0) return null;
  const host = new URL(baseUrl).host;
  // A single start at a skipped wall time is given in UTC (see skippedStarts); a rule's DTSTART keeps the zone.
  const startLine = (wall: string) => {
    const instant = instantOfStationWall(parseWallKey(wall)!, timeZone);
    return wallKeyAt(instant, timeZone) === wall ? `DTSTART;TZID=${timeZone}:${compact(wall)}` : `DTSTART:${utc(instant)}`;
  };
  // The station writes its calendars in its own language, whoever downloads them; a follower's
  // reminders come in the language they followed in (calendar apps fetch without cookies or a language).
  const { t } = followed ? translator(serverI18n(followed.language)) : stationTranslator();
  const name = slug
    ? `${shows[0].name} · ${station.name}`
    : t(followed ? "schedule.remindersCalendarName" : "schedule.calendarName", { station: station.name });
  const years = shows.flatMap((show) =>
    show.slots.flatMap((slot) => [Number(slot.startDate.slice(0, 4)), ...slot.moves.map((move) => Number(move.newStart.slice(0, 4)))]),
  );
  const now = new Date().getUTCFullYear();
  const first = Math.min(now, ...years);
  const last = now + ZONE_YEARS_AHEAD;
  const gaps = offsetTransitions(timeZone, new Date(Date.UTC(first, 0, 1)), new Date(Date.UTC(last + 1, 0, 1))).filter((change) => change.to > change.from);
  const events = shows.flatMap((show) =>
    show.slots.flatMap((slot) => {
      const common = [
        `SUMMARY:${escapeIcsText(show.name)}`,
        ...(show.description ? [`DESCRIPTION:${escapeIcsText(show.description)}`] : []),
        `URL;VALUE=URI:${baseUrl}/shows/${show.slug}`,
        // The reminder a follower's calendar app gives (RFC 5545 3.6.6), opening the live player.
        ...(followed
          ? [
              "BEGIN:VALARM",
              "ACTION:DISPLAY",
              `DESCRIPTION:${escapeIcsText(t("schedule.reminderTitle", { show: show.name, minutes: followed.alarmMinutes }))}`,
              `TRIGGER:-PT${followed.alarmMinutes}M`,
              "END:VALARM",
            ]
          : []),
      ];
      const stamp = utc(slot.updatedAt > show.updatedAt ? slot.updatedAt : show.updatedAt);
      const skipped = slot.rrule ? skippedStarts(slot, timeZone, gaps) : [];
      const exdates = [...slot.exdates, ...skipped].sort();
      const lines = [
        "BEGIN:VEVENT",
        `UID:slot-${slot.id}@${host}`,
        `DTSTAMP:${stamp}`,
        startLine(`${slot.startDate}T${slot.startTime}`),
        `DURATION:PT${slot.durationMinutes}M`,
      ];
      if (slot.rrule) {
        // With a zoned DTSTART, UNTIL must be given in UTC (RFC 5545 3.3.10).
        const until = slot.endDate ? `;UNTIL=${utc(instantOfStationWall(parseWallKey(`${slot.endDate}T23:59`)!, timeZone))}` : "";
        lines.push(`RRULE:${slot.rrule}${until}`);
        if (exdates.length > 0) lines.push(`EXDATE;TZID=${timeZone}:${exdates.map(compact).join(",")}`);
      }
      lines.push(...common, "END:VEVENT");
      const spelledOut = skipped.flatMap((wall) => [
        "BEGIN:VEVENT",
        `UID:slot-${slot.id}-at-${compact(wall)}@${host}`,
        `DTSTAMP:${stamp}`,
        `DTSTART:${utc(instantOfStationWall(parseWallKey(wall)!, timeZone))}`,
        `DURATION:PT${slot.durationMinutes}M`,
        ...common,
        "END:VEVENT",
      ]);
      const moved = slot.moves.flatMap((move) => [
        "BEGIN:VEVENT",
        `UID:slot-${slot.id}-moved-${compact(move.originalStart)}@${host}`,
        `DTSTAMP:${utc(move.createdAt)}`,
        startLine(move.newStart),
        `DURATION:PT${move.durationMinutes}M`,
        ...common,
        "END:VEVENT",
      ]);
      // A one-off special that was moved exists only at its new time.
      return !slot.rrule && slot.exdates.length > 0 ? moved : [...lines, ...spelledOut, ...moved];
    }),
  );
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${station.name}//Schedule//EN`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `NAME:${escapeIcsText(name)}`,
    `X-WR-CALNAME:${escapeIcsText(name)}`,
    `X-WR-TIMEZONE:${timeZone}`,
    "REFRESH-INTERVAL;VALUE=DURATION:PT6H",
    "X-PUBLISHED-TTL:PT6H",
    ...buildVTimezone(timeZone, { first: Math.min(now, ...years), last: now + ZONE_YEARS_AHEAD }),
    ...events,
    "END:VCALENDAR",
  ];
  return lines.map(foldIcsLine).join("\r\n") + "\r\n";
}
