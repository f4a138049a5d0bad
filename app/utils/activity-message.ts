import type { MessageKey } from "~/i18n/keys";
import type { Translator } from "~/i18n/translate";
import { dateLabel, describeSlot, timeLabel, wallLabel, type SlotRule } from "./weekdays";

/*
 * An activity-log line is stored as what happened (a message key and its values), not as words:
 * each admin reads it in their own language, dates and times in their own format. Values that
 * need words or a format of their own are typed; plain strings and numbers go in as they are.
 */

/** A value of an activity message: text, a number, or something each reader's locale words. */
export type ActivityValue =
  | string
  | number
  /** A calendar date, "2026-11-26". */
  | { date: string }
  /** A time of day, "19:30". */
  | { time: string }
  /** A wall time in the station's zone, "2026-11-26T19:30". */
  | { at: string }
  /** A schedule slot's rule, worded as the schedule words it. */
  | { slot: SlotRule };

export interface ActivityMessage {
  key: MessageKey;
  values?: Record<string, ActivityValue>;
}

/** The message as a stored pair (ActivityLog.messageKey / messageValues). */
export function activityMessage(key: MessageKey, values?: Record<string, ActivityValue>): ActivityMessage {
  return values ? { key, values } : { key };
}

function valueText(value: ActivityValue, translator: Pick<Translator, "t" | "locale">): string | number {
  if (typeof value === "string" || typeof value === "number") return value;
  if (value === null || typeof value !== "object") return String(value);
  if ("date" in value) return dateLabel(value.date, translator.locale);
  if ("time" in value) return timeLabel(value.time, translator.locale);
  if ("at" in value) return wallLabel(value.at, translator.locale);
  if ("slot" in value) return describeSlot(value.slot, translator);
  return "";
}

/** The message in the translator's language. */
export function activityText(message: ActivityMessage, translator: Pick<Translator, "t" | "locale">): string {
  const values = Object.fromEntries(Object.entries(message.values ?? {}).map(([name, value]) => [name, valueText(value, translator)]));
  return translator.t(message.key, values);
}
