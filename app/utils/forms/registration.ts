import * as z from "zod";
import type { MessageKey } from "~/i18n/keys";
import { isPlainText } from "~/utils/plain-text";
import { text } from "./form";

// Deliberately loose: one @, something on both sides, a dot inside the domain, no spaces, and none
// of the characters an address only has when quoted (no markup either). Checked by parts: one
// pattern with a dot that both sides of it may hold backtracks quadratically on "a@....".
const NOT_IN_ADDRESS = /[\s@<>()[\]\\,;:"]/;
const MAX_EMAIL_LENGTH = 254;

/** True for something shaped like an email address (the crew form and registration share the rule). */
export function isEmailAddress(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH || !isPlainText(value)) return false;
  const at = value.indexOf("@");
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  const dot = domain.indexOf(".", 1);
  return at > 0 && !NOT_IN_ADDRESS.test(local) && !NOT_IN_ADDRESS.test(domain) && dot > 0 && dot < domain.length - 1;
}

// The schema's messages are message keys (the form's language is known only where a request is):
// the route translates them with its translator.
export const REGISTRATION_INCOMPLETE: MessageKey = "account.registrationIncomplete";
const EMAIL_INVALID: MessageKey = "account.emailInvalid";
const message = (key: MessageKey) => key;

/** The registration form's fields (/register and the JSON API POST /users); the password's length caps scrypt's work. */
export const registrationFields = z.object({
  name: text(
    z.string().trim().min(1, REGISTRATION_INCOMPLETE).max(80, message("account.nameTooLong")).refine(isPlainText, message("account.nameNotPlainText")),
  ),
  email: text(z.string().trim().toLowerCase().min(1, REGISTRATION_INCOMPLETE).max(254, EMAIL_INVALID).refine(isEmailAddress, EMAIL_INVALID)),
  password: text(z.string().min(1, REGISTRATION_INCOMPLETE).min(8, message("account.passwordTooShort")).max(200, message("account.passwordTooLong"))),
  conPassword: text(z.string().min(1, REGISTRATION_INCOMPLETE)),
});

export const registrationSchema = registrationFields.refine((input) => input.password === input.conPassword, {
  message: message("account.passwordsDiffer"),
  path: ["conPassword"],
});

/** The first problem to tell (a message key): a missing field before anything else, then in the form's order. */
export function registrationProblem(errors: Record<string, string>): MessageKey {
  const messages = Object.values(errors);
  return messages.includes(REGISTRATION_INCOMPLETE) ? REGISTRATION_INCOMPLETE : (messages[0] as MessageKey);
}

export type Registration = z.output<typeof registrationSchema>;
