import * as z from "zod";
import { text } from "./form";

/** The spec's message when anything is missing from the event form. */
export const EVENT_INCOMPLETE = "Lengkapi semua data sebelum mengunggah.";
// What a missing field says under it; any of them makes EVENT_INCOMPLETE the form's message.
const MISSING = { poster: "Choose a poster image.", name: "Enter the event's name.", date: "Choose the date.", time: "Choose the time." };

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
      .pipe(z.string().min(1, MISSING.name).max(120, "The event name is too long (at most 120 characters).")),
  ),
  date: text(z.string().trim().min(1, MISSING.date).refine(isRealDate, "The date must be a real date (YYYY-MM-DD).")),
  time: text(
    z
      .string()
      .trim()
      .min(1, MISSING.time)
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "The time must be a time of day (HH:MM)."),
  ),
});

/** The whole post: a new event needs its poster, an edit keeps the current one. */
export function eventSchema(editing: boolean) {
  return z.object({ poster: editing ? z.unknown() : z.custom<Buffer>((file) => file != null, MISSING.poster) }).merge(eventFields);
}

/**
 * The form's answer as the spec words it: every missing field and the one alert, or else the
 * first field that is wrong, alone.
 */
export function eventProblem(errors: Record<string, string>): { message: string; errors: Record<string, string> } {
  const missing = Object.fromEntries(Object.entries(errors).filter(([field, message]) => MISSING[field as keyof typeof MISSING] === message));
  if (Object.keys(missing).length > 0) return { message: EVENT_INCOMPLETE, errors: missing };
  const [field, message] = Object.entries(errors)[0];
  return { message, errors: { [field]: message } };
}
