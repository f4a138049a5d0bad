import * as z from "zod";
import { ChaptersError, parseChapters } from "~/utils/transcript";
import { fromDateTimeLocal } from "~/utils/time-zone";
import { text } from "./form";

const ID = /^[a-z0-9]{1,40}$/i;

function episodeNumber(label: string) {
  const rule = `The ${label} number is a whole number from 1 to 9999, or empty.`;
  return text(
    z
      .string()
      .trim()
      .refine((value) => !value || (/^\d{1,4}$/.test(value) && Number(value) >= 1), rule)
      .transform((value) => (value ? Number(value) : null)),
  );
}

/** The episode form's text fields (/episodes-admin); the files are checked by their bytes when stored. */
export const episodeFields = z.object({
  title: text(z.string().trim().min(1, "Enter the episode's title.").max(200, "Keep the title under 200 characters.")),
  description: text(z.string().trim().min(1, "Describe the episode in a sentence or two.").max(4000, "Keep the description under 4000 characters.")),
  // A datetime-local value in the station's time zone (see episodeSchema).
  publishedAt: text(z.string().min(1, "Choose the date and time the episode goes out.")),
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
  seasonNumber: episodeNumber("season"),
  episodeNumber: episodeNumber("episode"),
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
      .refine((ids) => ids.length <= 50 && ids.every((id) => ID.test(id)), "Choose the credited crew from the list."),
  ),
  // Absent (a form without the show picker) leaves the show as it is; empty is "no show".
  showId: z
    .string()
    .trim()
    .refine((id) => !id || ID.test(id), "Choose the show from the list.")
    .transform((id) => id || null)
    .optional(),
  removeTranscript: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});

/** The whole post: a new episode needs its audio and cover; the date is read in the station's time zone. */
export function episodeSchema(editing: boolean, timeZone: string) {
  const needed = (message: string) => (editing ? z.unknown() : z.custom<unknown>((file) => file != null, message));
  return episodeFields.extend({
    publishedAt: episodeFields.shape.publishedAt.transform((local, context) => {
      const date = fromDateTimeLocal(local, timeZone);
      if (!date) context.addIssue({ code: "custom", message: "Choose the date and time the episode goes out." });
      return date ?? z.NEVER;
    }),
    audio: needed("Choose the episode's audio file (MP3, M4A or WAV)."),
    cover: needed("Choose a cover image for the episode."),
  });
}
