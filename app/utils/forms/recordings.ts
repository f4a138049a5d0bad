import * as z from "zod";
import { keyedMessage } from "./form";
import type { MessageKey } from "~/i18n/keys";

// The recordings page's forms (/recordings-admin). Their messages are message keys (with values):
// the admin form's answer translates them (answerAdminForm).
export const ARCHIVE_MODES = ["off", "draft", "publish"] as const;
export type ArchiveMode = (typeof ARCHIVE_MODES)[number];
export const MAX_ROLL_SECONDS = 600;

const CHOOSE_ARCHIVE_MODE: MessageKey = "schedule.chooseArchiveMode";
const ROLL_INVALID = keyedMessage("schedule.rollInvalid", { max: MAX_ROLL_SECONDS });
/** The trim form's message when a field is not whole seconds; each such field says WHOLE_SECONDS. */
export const TRIM_WHOLE_SECONDS: MessageKey = "schedule.trimWholeSeconds";
const WHOLE_SECONDS: MessageKey = "schedule.wholeSeconds";

/** Whole seconds up to `digits` digits; an empty field is 0. */
function seconds(digits: number, message: string) {
  return z.preprocess(
    (value) => value ?? "",
    z
      .string()
      .trim()
      .max(digits, message)
      .regex(/^\d*$/, message)
      .transform((text) => Number(text)),
  );
}

/** A show's archive setting: what becomes of its airings, and the seconds recorded before and after each. */
export const showArchiveSchema = z.object({
  archive: z.preprocess((value) => value ?? "", z.enum(ARCHIVE_MODES, { message: CHOOSE_ARCHIVE_MODE })),
  preroll: seconds(4, ROLL_INVALID).pipe(z.number().max(MAX_ROLL_SECONDS, ROLL_INVALID)),
  postroll: seconds(4, ROLL_INVALID).pipe(z.number().max(MAX_ROLL_SECONDS, ROLL_INVALID)),
});

/** Publishing a draft: the seconds cut from its start and its end. */
export const trimSchema = z.object({
  trimStart: seconds(5, WHOLE_SECONDS),
  trimEnd: seconds(5, WHOLE_SECONDS),
});

/** The archive form's message: its first refused field's, in the form's order (the mode before the seconds). */
export function showArchiveProblem(errors: Record<string, string>): string {
  return Object.values(errors)[0];
}
