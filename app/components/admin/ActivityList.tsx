import type { ActivityListItem } from "~/models/activity.server";
import { Icon } from "../Icon";

type Activity = Omit<ActivityListItem, "createdAt" | "session"> & {
  createdAt: string | Date;
  session: { label: string; startedAt: string | Date | null; clientIp: string | null } | null;
};

// Building a formatter costs far more than using one: one per time zone, not one per line.
const formats = new Map<string, Intl.DateTimeFormat>();

function when(value: string | Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
    formats.set(timeZone, format);
  }
  return format.format(new Date(value));
}

/** The newest admin changes: what, when, and from which admin session. */
export function ActivityList({ items, timeZone }: { items: Activity[]; timeZone: string }) {
  if (items.length === 0) {
    return (
      <p className="empty-state">
        <Icon name="calendar" />
        No admin changes yet. Every change made here is listed with its time and admin session.
      </p>
    );
  }
  return (
    <ol className="activity-list">
      {items.map((item) => (
        <li key={item.id} className="activity-list__item">
          <p className="activity-list__summary">{item.summary}</p>
          <p className="caption">
            <time dateTime={new Date(item.createdAt).toISOString()}>{when(item.createdAt, timeZone)}</time>
            {" · "}
            {item.session ? `session ${item.session.label}${item.session.clientIp ? ` from ${item.session.clientIp}` : ""}` : "outside an admin session"}
          </p>
        </li>
      ))}
    </ol>
  );
}
