import { useT } from "~/i18n/translate";
import type { ActivityListItem } from "~/models/activity.server";
import { activityText } from "~/utils/activity-message";
import { Icon } from "../Icon";

type Activity = Omit<ActivityListItem, "createdAt" | "session" | "actorUserId"> & {
  createdAt: string | Date;
  session: { label: string; startedAt: string | Date | null; clientIp: string | null } | null;
};

// Building a formatter costs far more than using one: one per locale and time zone, not one per line.
const formats = new Map<string, Intl.DateTimeFormat>();

function when(value: string | Date, locale: string, timeZone: string): string {
  let format = formats.get(`${locale} ${timeZone}`);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
    formats.set(`${locale} ${timeZone}`, format);
  }
  return format.format(new Date(value));
}

/** The newest admin changes: what, when, who (the staff member, when there was one) and from which admin session. */
export function ActivityList({ items, timeZone }: { items: Activity[]; timeZone: string }) {
  const translator = useT();
  const { t, locale, language } = translator;
  if (items.length === 0) {
    return (
      <p className="empty-state">
        <Icon name="calendar" />
        {t("admin.activityEmpty")}
      </p>
    );
  }
  return (
    <ol className="activity-list">
      {items.map((item) => (
        <li key={item.id} className="activity-list__item">
          {item.message ? (
            <p className="activity-list__summary">{activityText(item.message, translator)}</p>
          ) : (
            // An entry from before lines were stored as messages: its English words, marked as such.
            <p className="activity-list__summary" lang="en">
              {item.summary}
            </p>
          )}
          <p className="caption">
            <time dateTime={new Date(item.createdAt).toISOString()}>{when(item.createdAt, locale, timeZone)}</time>
            {" · "}
            {(item.actorName || item.session) && (
              <>
                <span className="activity-list__actor">{item.actorName ? t("admin.activityBy", { name: item.actorName }) : t("admin.activityByStation")}</span>
                {" · "}
              </>
            )}
            {item.session
              ? item.session.clientIp
                ? t("admin.activitySessionFrom", { session: item.session.label, ip: item.session.clientIp })
                : t("admin.activitySession", { session: item.session.label })
              : t("admin.activityNoSession")}
            {!item.message && language !== "en" && ` · ${t("admin.activityAsWritten")}`}
          </p>
        </li>
      ))}
    </ol>
  );
}
