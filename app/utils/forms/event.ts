import * as z from "zod";
import type { MessageKey } from "~/i18n/keys";
import { text } from "./form";

// The messages are message keys ("events.nameTooLong"): the route translates them into the
// page's language (requestTranslator), so this schema stays free of any language.

/** The original app's message when anything is missing from the event form ('Lengkapi semua data sebelum mengunggah.'). */
export const EVENT_INCOMPLETE: MessageKey = "events.incomplete";
// What a missing field says under it; any of them makes EVENT_INCOMPLETE the form's message.
const MISSING: Record<"poster" | "name" | "date" | "time", MessageKey> = {
  poster: "events.posterMissing",
  name: "events.nameMissing",
  date: "events.dateMissing",
  time: "events.timeMissing",
};
const TOO_LONG: MessageKey = "events.nameTooLong";
const NOT_A_DATE: MessageKey = "events.dateInvalid";
const NOT_A_TIME: MessageKey = "events.timeInvalid";

function isRealDate(date: string): boolean {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : null;
  return Boolean(day) && !Number.isNaN(day!.getTime()) && day!.toISOString().slice(0, 10) === date;
}

/** The event form (/eventsAdmin): name, date (YYYY-MM-DD) and time (HH:MM, station time). */
export const eventFields = z.object({
  name: text(
    z
      .string()
      .transform((name) => name.trim().replace(/\s+/g, " "))
      .pipe(z.string().min(1, MISSING.name).max(120, TOO_LONG)),
  ),
  date: text(z.string().trim().min(1, MISSING.date).refine(isRealDate, NOT_A_DATE)),
  time: text(
    z
      .string()
      .trim()
      .min(1, MISSING.time)
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, NOT_A_TIME),
  ),
});

/** The whole post: a new event needs its poster, an edit keeps the current one. */
export function eventSchema(editing: boolean) {
  return z.object({ poster: editing ? z.unknown() : z.custom<Buffer>((file) => file != null, MISSING.poster) }).merge(eventFields);
}

/**
 * The form's answer as the original app words it: every missing field and the one alert, or else the
 * first field that is wrong, alone. Message keys, like the schema's.
 */
export function eventProblem(errors: Record<string, string>): { message: string; errors: Record<string, string> } {
  const missing = Object.fromEntries(Object.entries(errors).filter(([field, message]) => MISSING[field as keyof typeof MISSING] === message));
  if (Object.keys(missing).length > 0) return { message: EVENT_INCOMPLETE, errors: missing };
  const [field, message] = Object.entries(errors)[0];
  return { message, errors: { [field]: message } };
}
