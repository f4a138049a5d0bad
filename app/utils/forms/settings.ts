import * as z from "zod";
import { LANGUAGES } from "~/i18n/languages";
import type { MessageKey } from "~/i18n/keys";
import { isTimeZone } from "../schedule-time";
import { text } from "./form";

// The station settings form (/settings-admin) and the JSON it is stored as: one schema for the
// form's fields, the action's check and the stored row read back at start (station-settings.server.ts).

/** Rows of social links the form offers. */
export const SOCIAL_LINK_ROWS = 4;

const EMAIL_PATTERN = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}\.[^\s@<>".]{2,}$/;

function isUrl(value: string, protocols: string[]): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** An empty field is null: the setting falls back to the station's default. */
const optional = (schema: z.ZodType<string, z.ZodTypeDef, string>) =>
  text(
    z
      .string()
      .trim()
      .transform((value) => (value === "" ? null : value))
      .pipe(schema.nullable()),
  );

const wholeNumber = (min: number, max: number, message: MessageKey) =>
  z.preprocess(
    (value) => (typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value),
    z.number({ message }).int(message).min(min, message).max(max, message),
  );

const socialLink = z.object({
  label: z.string().trim().min(1, "admin.settingsSocialLabelRequired").max(40, "admin.settingsSocialLabelRequired"),
  url: z
    .string()
    .trim()
    .max(500, "admin.settingsSocialUrlInvalid")
    .refine((value) => isUrl(value, ["https:"]), "admin.settingsSocialUrlInvalid"),
});

// Each setting's rule, once: the stored row and the posted form check the same things (the form
// adds what a text field needs: trimming, empty as null, numbers from text).
const rules = {
  name: z.string().trim().min(1, "admin.settingsNameInvalid").max(60, "admin.settingsNameInvalid"),
  tagline: z.string().trim().max(120, "admin.settingsTaglineInvalid"),
  logoUrl: z
    .string()
    .max(500, "admin.settingsLogoUrlInvalid")
    .refine((value) => isUrl(value, ["https:", "http:"]), "admin.settingsLogoUrlInvalid"),
  accentColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, "admin.settingsAccentColorInvalid"),
  timeZone: z.string().max(64, "admin.settingsTimeZoneInvalid").refine(isTimeZone, "admin.settingsTimeZoneInvalid"),
  language: z.enum(LANGUAGES, { message: "admin.settingsLanguageInvalid" }),
  email: z.string().max(255, "admin.settingsEmailInvalid").regex(EMAIL_PATTERN, "admin.settingsEmailInvalid"),
  streamUrl: z
    .string()
    .max(500, "admin.settingsStreamUrlInvalid")
    .refine((value) => isUrl(value, ["https:", "http:"]), "admin.settingsStreamUrlInvalid"),
};

/** The stored settings: what a saved form becomes, and what is read back from the database. */
export const storedSettingsSchema = z
  .object({
    name: rules.name,
    tagline: rules.tagline.nullable(),
    logoUrl: rules.logoUrl.nullable(),
    accentColor: rules.accentColor.transform((value) => value.toLowerCase()),
    timeZone: rules.timeZone,
    language: rules.language,
    email: rules.email.nullable(),
    socialLinks: z.array(socialLink).max(SOCIAL_LINK_ROWS),
    streamUrl: rules.streamUrl.nullable(),
    // The same bounds as the environment's REWIND_HOURS and HISTORY_DAYS (config.server.ts).
    rewindHours: z.number().int().min(0).max(168),
    historyDays: z.number().int().min(1).max(36500),
  })
  .partial();

export type StationSettingsValues = z.output<typeof storedSettingsSchema>;

/** The settings form as posted: flat fields, social links as numbered rows (an empty row is left out). */
export const settingsFormSchema = z
  .object({
    name: text(rules.name),
    tagline: optional(rules.tagline),
    logoUrl: optional(rules.logoUrl),
    accentColor: text(z.string().trim().pipe(rules.accentColor)),
    timeZone: text(z.string().trim().pipe(rules.timeZone)),
    language: rules.language,
    email: optional(rules.email),
    streamUrl: optional(rules.streamUrl),
    rewindHours: wholeNumber(0, 168, "admin.settingsRewindHoursInvalid"),
    historyDays: wholeNumber(1, 36500, "admin.settingsHistoryDaysInvalid"),
  })
  .partial();

/** The social link rows of a posted form: pairs with both parts empty are skipped; a half row is refused. */
export function socialLinkRows(fields: Record<string, string | undefined>) {
  const rows: { label: string; url: string }[] = [];
  const errors: Record<string, string> = {};
  for (let row = 0; row < SOCIAL_LINK_ROWS; row++) {
    const label = (fields[`socialLabel${row}`] ?? "").trim();
    const url = (fields[`socialUrl${row}`] ?? "").trim();
    if (!label && !url) continue;
    const check = socialLink.safeParse({ label, url });
    if (check.success) rows.push(check.data);
    else for (const issue of check.error.issues) errors[issue.path[0] === "label" ? `socialLabel${row}` : `socialUrl${row}`] ??= issue.message;
  }
  return { rows, errors };
}
