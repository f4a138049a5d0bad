import * as z from "zod";
import type { MessageKey } from "~/i18n/keys";
import { parseWallKey } from "~/utils/schedule-time";
import { WEEKDAYS } from "~/utils/weekdays";
import { text } from "./form";

// The programme admin's forms (/schedule-admin): the show, the time slot and the move of one
// airing. The messages are message keys ("schedule.nameTooLong"): answerAdminForm translates them.

/** The form's message when a show is refused; each refused field says why under it. */
export const SHOW_REFUSED: MessageKey = "schedule.correctFields";
export const DEFAULT_SHOW_COLOUR = "#e11d48";
export const MAX_DURATION_MINUTES = 24 * 60;
const MIN_DURATION_MINUTES = 5;
const MAX_HOSTS = 20;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/;
const SLUG_INVALID: MessageKey = "schedule.slugInvalid";

/** "Late Night Jazz!" -> "late-night-jazz". */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/** The show form's fields; `hosts` are the chosen crew members' ids (the form's host-<id> boxes). */
export const showFields = z.object({
  name: text(
    z
      .string()
      .transform((name) => name.trim().replace(/\s+/g, " "))
      .pipe(
        z
          .string()
          .min(1, "schedule.nameMissing" satisfies MessageKey)
          .max(100, "schedule.nameTooLong" satisfies MessageKey),
      ),
  ),
  // Empty: made from the name (showSchema).
  slug: text(
    z
      .string()
      .trim()
      .max(60, SLUG_INVALID)
      .refine((slug) => slug === "" || SLUG.test(slug), SLUG_INVALID),
  ),
  description: text(
    z
      .string()
      .trim()
      .max(4000, "schedule.descriptionTooLong" satisfies MessageKey),
  ),
  colour: text(
    z
      .string()
      .trim()
      .toLowerCase()
      .transform((colour) => colour || DEFAULT_SHOW_COLOUR)
      .pipe(z.string().regex(/^#[0-9a-f]{6}$/, "schedule.colourInvalid" satisfies MessageKey)),
  ),
  hosts: z
    .array(z.string())
    .default([])
    .transform((ids) => [...new Set(ids)])
    .pipe(z.array(z.string()).max(MAX_HOSTS, "schedule.tooManyHosts" satisfies MessageKey)),
});

/** The whole show form: the slug is made from the name when left empty. */
export const showSchema = showFields.transform(({ name, slug, description, colour, hosts }, context) => {
  const finalSlug = slug || slugify(name);
  if (!SLUG.test(finalSlug)) {
    context.addIssue({ code: z.ZodIssueCode.custom, path: ["slug"], message: SLUG_INVALID });
    return z.NEVER;
  }
  return { name, slug: finalSlug, description, colour, hostIds: hosts };
});

function isDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && parseWallKey(`${value}T00:00`) !== null;
}

/** A duration in whole minutes, 5..MAX_DURATION_MINUTES, as typed ("60") or as a number (NaN is refused). */
export function durationField(message: MessageKey) {
  return z.preprocess(
    (value) => (typeof value === "string" ? value : String(value ?? "")),
    z
      .string()
      .trim()
      .min(1, message)
      .regex(/^\d{1,4}$/, message)
      .pipe(z.coerce.number().int(message).min(MIN_DURATION_MINUTES, message).max(MAX_DURATION_MINUTES, message)),
  );
}

const START_DATE_INVALID: MessageKey = "schedule.startDateInvalid";
const START_TIME_INVALID: MessageKey = "schedule.startTimeInvalid";

/** The slot form's fields: `days` are the ticked day-<XX> boxes; `duration` is in minutes. */
export const slotFields = z.object({
  // Anything but "once" is the weekly rule, the form's default.
  kind: z.preprocess((kind) => (kind === "once" ? "once" : "weekly"), z.enum(["weekly", "once"])),
  days: z.array(z.string()).default([]),
  startDate: text(z.string().trim().min(1, START_DATE_INVALID).refine(isDate, START_DATE_INVALID)),
  startTime: text(
    z
      .string()
      .trim()
      .min(1, START_TIME_INVALID)
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, START_TIME_INVALID),
  ),
  duration: durationField("schedule.durationInvalid"),
  // Only a weekly slot has days and a last date (checked in slotSchema); a special ignores them.
  endDate: text(z.string().trim()),
});

/** The slot form as RFC 5545 data: a weekly slot becomes FREQ=WEEKLY;BYDAY=..., a special has no rule. */
export const slotSchema = slotFields.transform(({ kind, days, startDate, startTime, duration, endDate }, context) => {
  const slot = { startDate, startTime, durationMinutes: duration };
  if (kind === "once") return { ...slot, rrule: null, endDate: null };
  const byday = WEEKDAYS.filter((day) => days.includes(day));
  const problem = (path: string, message: MessageKey) => {
    context.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    return z.NEVER;
  };
  if (byday.length === 0) return problem("days", "schedule.daysMissing");
  if (endDate !== "" && !isDate(endDate)) return problem("endDate", "schedule.endDateInvalid");
  if (endDate !== "" && endDate < startDate) return problem("endDate", "schedule.endDateBeforeStart");
  return { ...slot, rrule: `FREQ=WEEKLY;BYDAY=${byday.join(",")}`, endDate: endDate || null };
});

export type SlotFormValues = z.input<typeof slotSchema>;
export type SlotValue = z.output<typeof slotSchema>;

/** Moving one airing: its new wall-clock start ("YYYY-MM-DDTHH:MM", station time) and length. */
export const moveAiringFields = z.object({
  duration: durationField("schedule.durationInvalidUnchanged"),
  newStart: text(
    z
      .string()
      .trim()
      .min(1, "schedule.newStartInvalid" satisfies MessageKey)
      .refine((start) => parseWallKey(start) !== null, "schedule.newStartInvalid" satisfies MessageKey),
  ),
});
