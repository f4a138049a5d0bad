import * as z from "zod";
import { STAFF_ROLES } from "~/utils/staff-roles";
import { text } from "./form";
import { isEmailAddress } from "./registration";

/** The Staff screen's grant form: a listener's account (by email), the role, and the crew profile a Host's shows follow from. */
export const staffGrantSchema = z.object({
  email: text(
    z.string().trim().toLowerCase().min(1, "admin.staffEmailRequired").max(254, "account.emailInvalid").refine(isEmailAddress, "account.emailInvalid"),
  ),
  role: text(z.enum(STAFF_ROLES, { message: "admin.staffRoleInvalid" })),
  crewMemberId: text(z.string().max(100)),
});
export type StaffGrant = z.output<typeof staffGrantSchema>;

/** A staff member's own admin PIN, typed twice (6 digits, as the station's). */
export const ownPinSchema = z.object({ pin: text(z.string()), confirm: text(z.string()) }).superRefine((value, context) => {
  if (!/^\d{6}$/.test(value.pin)) context.addIssue({ code: z.ZodIssueCode.custom, path: ["pin"], message: "forms.pinChangeAdminFormat" });
  else if (value.confirm !== value.pin) context.addIssue({ code: z.ZodIssueCode.custom, path: ["confirm"], message: "forms.pinChangeMismatch" });
});
