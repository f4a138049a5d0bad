import * as z from "zod";
import type { MessageKey } from "~/i18n/keys";
import { text } from "./form";
import { isEmailAddress } from "./registration";

// The messages are message keys: the route translates them, filling {field} with the field's
// label and {max} with its length limit (CrewAdmin's action).
const REQUIRED: MessageKey = "chart.fieldRequired";
const TOO_LONG: MessageKey = "chart.fieldTooLong";
const AGE_RULE: MessageKey = "chart.ageRule";
const NOT_AN_EMAIL: MessageKey = "chart.emailInvalid";
const NO_PHOTO: MessageKey = "chart.photoRequired";

const limited = (maxLength: number) => z.string().trim().min(1, REQUIRED).max(maxLength, TOO_LONG);

/** The crew form (/CrewAdmin): every field is required; the photo only when adding. */
export const crewMemberFields = z.object({
  name: text(limited(80)),
  age: text(limited(3).regex(/^\d+$/, AGE_RULE).pipe(z.coerce.number().min(1, AGE_RULE).max(120, AGE_RULE))),
  email: text(limited(254).refine(isEmailAddress, NOT_AN_EMAIL)),
  jobTitle: text(limited(80)),
  address: text(limited(200)),
  bio: text(limited(1000)),
  // "Show on the public page": a ticked box posts "on", an unticked one posts nothing (off, the default).
  detailsPublic: z.preprocess((value) => value === "on" || value === "true", z.boolean()),
});

export type CrewMemberInput = z.output<typeof crewMemberFields>;

/** Each field's label, the {field} of its messages. */
export const CREW_MEMBER_LABELS: Record<keyof CrewMemberInput | "image", MessageKey> = {
  name: "chart.name",
  age: "chart.age",
  email: "chart.email",
  jobTitle: "chart.jobTitle",
  address: "chart.address",
  bio: "chart.bio",
  detailsPublic: "chart.detailsPublic",
  image: "chart.photo",
};

/** The whole post: the fields, and the photo, which a new member needs (editing keeps the current one). */
export function crewMemberSchema(editing: boolean) {
  return crewMemberFields.extend({ image: editing ? z.unknown() : z.custom<Buffer>((file) => file != null, NO_PHOTO) });
}
