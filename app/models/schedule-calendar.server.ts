import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { buildVTimezone, escapeIcsText, foldIcsLine } from "~/services/feeds.server";
import { instantOfStationWall, parseWallKey } from "~/utils/schedule-time";
import { getStationIdentity } from "./station.server";

/*
 * The programme as iCalendar (RFC 5545): one VEVENT per slot with its RRULE and
 * EXDATEs in the station's zone (with a VTIMEZONE), so a calendar app keeps
 * showing future airings without downloading again; moved airings and one-off
 * specials are VEVENTs of their own.
 */

// Open-ended weekly rules go on for ever; the VTIMEZONE spells out this many years ahead.
const ZONE_YEARS_AHEAD = 10;

const compact = (wall: string) => wall.replace(/[-:]/g, "") + "00";
const utc = (date: Date) => date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

/** The whole programme (no slug) or one show's airings as an iCalendar document. */
export async function buildScheduleCalendar(baseUrl: string, slug?: string): Promise<string | null> {
  const timeZone = getConfig().stationTimezone;
  const station = getStationIdentity();
  const shows = await db().show.findMany({
    where: slug ? { slug } : {},
    orderBy: { name: "asc" },
    select: {
      slug: true,
      name: true,
      description: true,
      updatedAt: true,
      slots: { select: { id: true, startDate: true, startTime: true, durationMinutes: true, rrule: true, endDate: true, exdates: true, updatedAt: true, moves: true } },
    },
  });
  if (slug && shows.length === 0) return null;
  const host = new URL(baseUrl).host;
  const name = slug ? `${shows[0].name} · ${station.name}` : `${station.name} programme`;
  const years = shows.flatMap((show) => show.slots.flatMap((slot) => [Number(slot.startDate.slice(0, 4)), ...slot.moves.map((move) => Number(move.newStart.slice(0, 4)))]));
  const now = new Date().getUTCFullYear();
  const events = shows.flatMap((show) =>
    show.slots.flatMap((slot) => {
      const common = [
        `SUMMARY:${escapeIcsText(show.name)}`,
        ...(show.description ? [`DESCRIPTION:${escapeIcsText(show.description)}`] : []),
        `URL;VALUE=URI:${baseUrl}/shows/${show.slug}`,
      ];
      const stamp = utc(slot.updatedAt > show.updatedAt ? slot.updatedAt : show.updatedAt);
      const lines = [
        "BEGIN:VEVENT",
        `UID:slot-${slot.id}@${host}`,
        `DTSTAMP:${stamp}`,
        `DTSTART;TZID=${timeZone}:${compact(`${slot.startDate}T${slot.startTime}`)}`,
        `DURATION:PT${slot.durationMinutes}M`,
      ];
      if (slot.rrule) {
        // With a zoned DTSTART, UNTIL must be given in UTC (RFC 5545 3.3.10).
        const until = slot.endDate ? `;UNTIL=${utc(instantOfStationWall(parseWallKey(`${slot.endDate}T23:59`)!, timeZone))}` : "";
        lines.push(`RRULE:${slot.rrule}${until}`);
        if (slot.exdates.length > 0) lines.push(`EXDATE;TZID=${timeZone}:${slot.exdates.map(compact).join(",")}`);
      }
      lines.push(...common, "END:VEVENT");
      const moved = slot.moves.flatMap((move) => [
        "BEGIN:VEVENT",
        `UID:slot-${slot.id}-moved-${compact(move.originalStart)}@${host}`,
        `DTSTAMP:${utc(move.createdAt)}`,
        `DTSTART;TZID=${timeZone}:${compact(move.newStart)}`,
        `DURATION:PT${move.durationMinutes}M`,
        ...common,
        "END:VEVENT",
      ]);
      // A one-off special that was moved exists only at its new time.
      return !slot.rrule && slot.exdates.length > 0 ? moved : [...lines, ...moved];
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
