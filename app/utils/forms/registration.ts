import * as z from "zod";
import { isPlainText } from "~/utils/plain-text";
import { text } from "./form";

// Deliberately loose: one @, something on both sides, a dot in the domain, no spaces,
// and none of the characters an address only has when quoted (no markup either).
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** True for something shaped like an email address (the crew form and registration share the rule). */
export function isEmailAddress(value: string): boolean {
  return isPlainText(value) && EMAIL_PATTERN.test(value);
}

export const REGISTRATION_INCOMPLETE = "Please fill in name, email, password and confirm password.";
const EMAIL_INVALID = "Please enter a valid email address.";

/** The registration form's fields (/register and the JSON API POST /users); the password's length caps scrypt's work. */
export const registrationFields = z.object({
  name: text(
    z
      .string()
      .trim()
      .min(1, REGISTRATION_INCOMPLETE)
      .max(80, "Name must be at most 80 characters.")
      .refine(isPlainText, "Name contains characters that are not allowed (control characters or invalid UTF-8)."),
  ),
  email: text(z.string().trim().toLowerCase().min(1, REGISTRATION_INCOMPLETE).max(254, EMAIL_INVALID).refine(isEmailAddress, EMAIL_INVALID)),
  password: text(
    z.string().min(1, REGISTRATION_INCOMPLETE).min(8, "Password must be at least 8 characters.").max(200, "Password must be at most 200 characters."),
  ),
  conPassword: text(z.string().min(1, REGISTRATION_INCOMPLETE)),
});

export const registrationSchema = registrationFields.refine((input) => input.password === input.conPassword, {
  message: "Passwords do not match.",
  path: ["conPassword"],
});

/** The first problem to tell: a missing field before anything else, then in the form's order. */
export function registrationProblem(errors: Record<string, string>): string {
  const messages = Object.values(errors);
  return messages.includes(REGISTRATION_INCOMPLETE) ? REGISTRATION_INCOMPLETE : messages[0];
}

export type Registration = z.output<typeof registrationSchema>;
