import * as z from "zod";
import type { MessageKey } from "~/i18n/keys";
import { text } from "./form";

// The dashboard's station forms (/dashboard-admin). Their messages are message keys: the admin
// form's answer translates them (answerAdminForm).
export const SITE_ORIGIN_INVALID: MessageKey = "forms.siteOriginInvalid";
export const STATION_EMAIL_INVALID: MessageKey = "admin.stationEmailInvalid";

/** `https://radio.example` from what an admin typed, or null when it is not a bare http(s) origin. */
export function parseOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password) return null;
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash) return null;
  return url.origin;
}

/** The site address form: a bare http(s) origin, answered as the origin itself. */
export const siteOriginSchema = z.object({
  origin: text(
    z
      .string()
      .trim()
      .min(1, SITE_ORIGIN_INVALID)
      .transform((value, context) => {
        const origin = parseOrigin(value);
        if (origin === null) context.addIssue({ code: z.ZodIssueCode.custom, message: SITE_ORIGIN_INVALID });
        return origin ?? z.NEVER;
      }),
  ),
});

const EMAIL_PATTERN = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}\.[^\s@<>".]{2,}$/;

/** The podcast owner's address form (StationEmailPrompt): one address, as the feed's directories need it. */
export const stationEmailSchema = z.object({
  email: text(z.string().trim().min(1, STATION_EMAIL_INVALID).regex(EMAIL_PATTERN, STATION_EMAIL_INVALID)),
});
