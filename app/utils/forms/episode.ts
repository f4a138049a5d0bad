import * as z from "zod";
import { ChaptersError, parseChapters } from "~/utils/transcript";
import { fromDateTimeLocal } from "~/utils/time-zone";
import { text } from "./form";
import type { MessageKey } from "~/i18n/keys";

const ID = /^[a-z0-9]{1,40}$/i;

function episodeNumber(rule: "forms.seasonNumberInvalid" | "forms.episodeNumberInvalid") {
  return text(
    z
      .string()
      .trim()
      .refine((value) => !value || (/^\d{1,4}$/.test(value) && Number(value) >= 1), rule)
      .transform((value) => (value ? Number(value) : null)),
  );
}

// Messages are keys of the "forms" messages, translated for the reader by the route (translateFormResult).
/** The episode form's text fields (/episodes-admin); the files are checked by their bytes when stored. */
export const episodeFields = z.object({
  title: text(z.string().trim().min(1, "forms.episodeTitleRequired").max(200, "forms.episodeTitleTooLong")),
  description: text(z.string().trim().min(1, "forms.episodeDescriptionRequired").max(4000, "forms.episodeDescriptionTooLong")),
  // A datetime-local value in the station's time zone (see episodeSchema).
  publishedAt: text(z.string().min(1, "forms.episodePublishedAtRequired")),
  chapters: text(
    z
      .string()
      .trim()
      .transform((json, context) => {
        try {
          const chapters = json ? parseChapters(json) : [];
          return chapters.length > 0 ? chapters : null;
        } catch (error) {
          if (!(error instanceof ChaptersError)) throw error;
          context.addIssue({ code: "custom", message: error.message });
          return z.NEVER;
        }
      }),
  ),
  seasonNumber: episodeNumber("forms.seasonNumberInvalid"),
  episodeNumber: episodeNumber("forms.episodeNumberInvalid"),
  // One checkbox per credited crew member, posted as a comma-separated list.
  credits: text(
    z
      .string()
      .transform((list) => [
        ...new Set(
          list
            .split(",")
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ])
      .refine((ids) => ids.length <= 50 && ids.every((id) => ID.test(id)), "forms.creditsInvalid"),
  ),
  // Absent (a form without the show picker) leaves the show as it is; empty is "no show".
  showId: z
    .string()
    .trim()
    .refine((id) => !id || ID.test(id), "forms.showInvalid")
    .transform((id) => id || null)
    .optional(),
  removeTranscript: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});

/** The whole post: a new episode needs its audio and cover; the date is read in the station's time zone. */
export function episodeSchema(editing: boolean, timeZone: string) {
  const needed = (message: MessageKey) => (editing ? z.unknown() : z.custom<unknown>((file) => file != null, message));
  return episodeFields.extend({
    publishedAt: episodeFields.shape.publishedAt.transform((local, context) => {
      const date = fromDateTimeLocal(local, timeZone);
      if (!date) context.addIssue({ code: "custom", message: "forms.episodePublishedAtRequired" });
      return date ?? z.NEVER;
    }),
    audio: needed("forms.episodeAudioRequired"),
    cover: needed("forms.episodeCoverRequired"),
  });
}
