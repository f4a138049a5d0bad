import * as z from "zod";
import type { MessageKey } from "~/i18n/keys";
import { text } from "./form";

// The original app's one answer to any wrong PIN ('Invalid PIN!'), a message key the route translates.
export const PIN_INVALID: MessageKey = "common.pinInvalid";

/** The dialog's kind: into the admin area (6 digits) or back to the public site (5 characters); anything but "public" is admin. */
export const pinKind = z.preprocess((value) => (value === "public" ? "public" : "admin"), z.enum(["admin", "public"]));
export type PinKind = z.output<typeof pinKind>;

/** What /pin answers a refused PIN with (a correct one redirects): the PIN dialogs read it from their fetcher. */
export interface PinRefusal {
  error: string;
  kind: PinKind;
  redirectTo: string;
  /** Where to sign in first (the station has a manager: the admin PIN is a second factor on a staff account). */
  signIn?: string;
}

/** Sign-in, then back to the admin PIN dialog for the same page. */
export function signInHref(redirectTo: string): string {
  const back = `/listen?${new URLSearchParams({ pin: "admin", ...(redirectTo ? { redirectTo } : {}) })}`;
  return `/login?${new URLSearchParams({ redirectTo: back })}`;
}

// PinDialog (the public site's header chunk, kept free of zod) sets the same lengths as maxLength.
export const PIN_MAX_LENGTH: Record<PinKind, number> = { admin: 6, public: 5 };

const pin = {
  admin: z.string().min(1, PIN_INVALID).max(PIN_MAX_LENGTH.admin, PIN_INVALID).regex(/^\d+$/, PIN_INVALID),
  public: z.string().min(1, PIN_INVALID).max(PIN_MAX_LENGTH.public, PIN_INVALID),
};

function pinSchema(kind: PinKind) {
  return z.object({
    kind: pinKind,
    pin: text(pin[kind]),
    // Where the admin PIN leads (checked again by the model: only admin pages); absent when not a text field.
    redirectTo: z.preprocess((value) => (typeof value === "string" ? value : undefined), z.string().optional()),
  });
}

/** The PIN form (/pin and the PIN dialogs) of each kind: the PIN's length differs. */
export const pinSchemas = { admin: pinSchema("admin"), public: pinSchema("public") };

// The dashboard's "PINs" form: the same shapes the environment accepts (config.server.ts).
export const PIN_CHANGE_FORMATS: Record<PinKind, { pattern: RegExp; message: MessageKey }> = {
  admin: { pattern: /^\d{6}$/, message: "forms.pinChangeAdminFormat" },
  public: { pattern: /^[^\s]{5}$/, message: "forms.pinChangePublicFormat" },
};

/** A new PIN typed twice on the dashboard; `kind` says which one. */
export const pinChangeSchema = z
  .object({
    kind: z.enum(["admin", "public"]),
    pin: text(z.string()),
    confirm: text(z.string()),
  })
  .superRefine((value, context) => {
    const format = PIN_CHANGE_FORMATS[value.kind];
    if (!format.pattern.test(value.pin)) context.addIssue({ code: z.ZodIssueCode.custom, path: ["pin"], message: format.message });
    else if (value.confirm !== value.pin) context.addIssue({ code: z.ZodIssueCode.custom, path: ["confirm"], message: "forms.pinChangeMismatch" });
  });
