import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { MessageKey } from "~/i18n/keys";
import { useT } from "~/i18n/translate";
import { Icon } from "./Icon";

// Matches REMINDER_MINUTES in app/models/show-reminders.server.ts (the page says it).
const REMINDER_MINUTES = 5;

type PushStatus = "unknown" | "available" | "on" | "blocked" | "failed";

/** The browser's own subscription for this site's pushes, made with the station's VAPID key. */
async function subscribeToPush(pushKey: string): Promise<PushSubscription> {
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  if (existing) return existing;
  const key = Uint8Array.from(atob(pushKey.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

/**
 * Follow a show (a plain form, so it works without JavaScript), then reminders 5 minutes before
 * each airing: as notifications where the browser allows Web Push, else (and always) as the
 * listener's own calendar feed.
 */
export function FollowShow({
  show,
  timeZone,
  following,
  pushSubscriptions,
  remindersUrl,
  pushKey,
}: {
  show: { slug: string; name: string };
  timeZone: string;
  following: boolean;
  pushSubscriptions: number;
  remindersUrl: string | null;
  pushKey: string;
}) {
  const { t } = useT();
  const [push, setPush] = useState<PushStatus>("unknown");

  useEffect(() => {
    if (!following) return;
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return setPush("blocked");
    if (Notification.permission === "denied") return setPush("blocked");
    void navigator.serviceWorker.ready
      .then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => setPush(subscription && pushSubscriptions > 0 ? "on" : "available"));
  }, [following, pushSubscriptions]);

  const enablePush = async () => {
    try {
      if ((await Notification.requestPermission()) !== "granted") return setPush("blocked");
      const subscription = await subscribeToPush(pushKey);
      const response = await fetch("/push-subscriptions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(subscription.toJSON()),
      });
      setPush(response.ok ? "on" : "failed");
    } catch {
      setPush("failed");
    }
  };

  const note: Partial<Record<PushStatus, MessageKey>> = { on: "schedule.pushOn", blocked: "schedule.pushBlocked", failed: "schedule.pushFailed" };
  const noteKey = note[push];
  return (
    <div className="follow-show">
      <div className="follow-show__buttons">
        <Form method="post" action={`/shows/${encodeURIComponent(show.slug)}`}>
          <input type="hidden" name="intent" value={following ? "unfollow" : "follow"} />
          <input type="hidden" name="timeZone" value={timeZone} />
          {following ? (
            <button type="submit" className="button button--ghost" aria-pressed="true" aria-label={t("schedule.unfollowShow", { show: show.name })}>
              <Icon name="bell" size={20} /> {t("schedule.following")} · {t("schedule.unfollow")}
            </button>
          ) : (
            <button type="submit" className="button" aria-label={t("schedule.followShow", { show: show.name })}>
              <Icon name="bell" size={20} /> {t("schedule.follow")}
            </button>
          )}
        </Form>
        {following && push === "available" && (
          <button type="button" className="button" onClick={() => void enablePush()}>
            {t("schedule.pushEnable")}
          </button>
        )}
        {following && remindersUrl && (
          <a className="button button--ghost" href={remindersUrl.replace(/^https?:/, "webcal:")}>
            <Icon name="calendar" size={20} /> {t("schedule.remindersCalendar")}
          </a>
        )}
      </div>
      <p className="follow-show__note muted" role="status">
        {noteKey ? t(noteKey, { minutes: REMINDER_MINUTES }) : following ? null : t("schedule.followHint", { minutes: REMINDER_MINUTES })}
      </p>
    </div>
  );
}
