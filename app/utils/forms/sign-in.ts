import * as z from "zod";
import type { MessageKey } from "~/i18n/keys";
import { fieldConstraints, text } from "./form";
import { registrationFields } from "./registration";

// The sign-in form (/login). Every refusal is the one generic message, a message key the page
// translates: an empty, over-long or unknown email and a wrong password all get the same answer,
// and all of them count against the sign-in rate limits (auth.server.ts).
export const WRONG_CREDENTIALS: MessageKey = "account.wrongCredentials";

// No account was ever registered with a longer email or password than registration accepts.
const registered = fieldConstraints(registrationFields);

export const signInFields = z.object({
  email: text(z.string().trim().toLowerCase().min(1, WRONG_CREDENTIALS).max(registered.email.maxLength!, WRONG_CREDENTIALS)),
  password: text(z.string().min(1, WRONG_CREDENTIALS).max(registered.password.maxLength!, WRONG_CREDENTIALS)),
});

export type SignIn = z.output<typeof signInFields>;
