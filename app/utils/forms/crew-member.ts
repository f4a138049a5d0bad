import * as z from "zod";
import { text } from "./form";
import { isEmailAddress } from "./registration";

const limited = (label: string, maxLength: number) =>
  z.string().trim().min(1, `${label} is required.`).max(maxLength, `${label} is too long (at most ${maxLength} characters).`);

const AGE_RULE = "Age must be a whole number between 1 and 120.";

/** The crew form (/CrewAdmin): every field is required; the photo only when adding. */
export const crewMemberFields = z.object({
  name: text(limited("Name", 80)),
  age: text(limited("Age", 3).regex(/^\d+$/, AGE_RULE).pipe(z.coerce.number().min(1, AGE_RULE).max(120, AGE_RULE))),
  email: text(limited("Email", 254).refine(isEmailAddress, "Enter an email address like name@example.com.")),
  jobTitle: text(limited("Job title", 80)),
  address: text(limited("Address", 200)),
  bio: text(limited("Bio", 1000)),
});

export type CrewMemberInput = z.output<typeof crewMemberFields>;

/** The whole post: the fields, and the photo, which a new member needs (editing keeps the current one). */
export function crewMemberSchema(editing: boolean) {
  return crewMemberFields.extend({ image: editing ? z.unknown() : z.custom<Buffer>((file) => file != null, "Photo is required.") });
}
