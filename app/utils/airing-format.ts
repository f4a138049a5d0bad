/** Time and day labels for airings, in any zone (server and browser share them). */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string, kind: "time" | "day" | "zone"): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let result = formats.get(key);
  if (!result) {
    const options: Intl.DateTimeFormatOptions =
      kind === "time"
        ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone }
        : kind === "day"
          ? { weekday: "long", day: "numeric", month: "long", timeZone }
          : { timeZoneName: "short", timeZone };
    result = new Intl.DateTimeFormat("en-GB", options);
    formats.set(key, result);
  }
  return result;
}

/** "20:00" in `timeZone`. */
export function timeIn(instant: Date | string, timeZone: string): string {
  return format(timeZone, "time").format(new Date(instant));
}

/** "Monday 23 November" in `timeZone`. */
export function dayIn(instant: Date | string, timeZone: string): string {
  return format(timeZone, "day").format(new Date(instant)).replace(",", "");
}

/** "CET", "GMT+7": the zone's short name at `instant`. */
export function zoneAbbreviation(instant: Date | string, timeZone: string): string {
  return (
    format(timeZone, "zone")
      .formatToParts(new Date(instant))
      .find((part) => part.type === "timeZoneName")?.value ?? timeZone
  );
}
