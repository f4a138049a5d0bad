import { randomBytes } from "node:crypto";
import { z } from "zod";
import { serverI18n } from "~/i18n/catalogs.server";
import { isLanguage, type Language } from "~/i18n/languages";
import { translator } from "~/i18n/translate";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { leadFromOneInstance, sleep } from "~/services/leadership.server";
import { generateVapidKeys, isAllowedPushEndpoint, sendPushMessage, type VapidKeys } from "~/services/web-push.server";
import { timeIn, zoneAbbreviation } from "~/utils/airing-format";
import { buildScheduleCalendar } from "./schedule-calendar.server";
import { listAirings } from "./schedule.server";
import { canonicalOrigin } from "./site-origin.server";
import { getStationIdentity } from "./station.server";

/*
 * Reminders for followed shows. A listener follows a show (their listener session names a
 * ShowFollower); with Web Push allowed, each of their browsers gets "<show> starts in 5 minutes"
 * before every airing and a message when a new episode of the show is published; without it,
 * the same reminders come as their own calendar feed (alarms 5 minutes before each airing).
 *
 * Sending is done by one instance (the holder of an advisory lock, see startReminderSender),
 * and each message is sent once: a PushDelivery row per subscription and message is written
 * before it goes out, and only the writer of the row sends. Instances racing, or a restart,
 * find the row there and send nothing. (A crash between the row and the send loses that one
 * message rather than ever sending it twice.)
 */

/** How long before an airing its reminder goes out. */
export const REMINDER_MINUTES = 5;
const VAPID_SETTING = "vapidKeys";
const LOCK_NAME = "spin-radio:show-reminders";
// Reminders go out within this long of their minute; the check costs one in-memory expansion.
const CHECK_EVERY_MS = 10_000;
// Episodes published at most this long ago are announced (not a back catalogue on first start).
const NEW_EPISODE_WINDOW_MS = 24 * 3_600_000;
// Delivery rows are kept this long (longer than any window above), then forgotten.
const DELIVERY_MEMORY_MS = 3 * 24 * 3_600_000;

// ---------------------------------------------------------------- following

function validTimeZone(zone: string | null | undefined): string {
  if (zone && zone.length <= 64) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone });
      return zone;
    } catch {
      // Not a zone this server knows: the station's zone below.
    }
  }
  return getConfig().stationTimezone;
}

/**
 * The follower's id, creating one when `followerId` names none (owned by `userId` when signed in);
 * also keeps their language and zone current.
 */
async function ensureFollower(followerId: string | null | undefined, userId: string | null | undefined, language: Language, timeZone: string): Promise<string> {
  const zone = validTimeZone(timeZone);
  if (followerId) {
    const { count } = await db().showFollower.updateMany({ where: { id: followerId }, data: { language, timeZone: zone } });
    if (count > 0) return followerId;
  }
  if (userId) {
    // The account's follower may exist already (another device): that one is theirs.
    const theirs = await db().showFollower.upsert({
      where: { userId },
      create: { userId, calendarToken: randomBytes(24).toString("base64url"), language, timeZone: zone },
      update: { language, timeZone: zone },
      select: { id: true },
    });
    return theirs.id;
  }
  const created = await db().showFollower.create({ data: { calendarToken: randomBytes(24).toString("base64url"), language, timeZone: zone } });
  return created.id;
}

/**
 * At sign-in: the follower of this browser's session joins the account's. Shows followed as a guest
 * and this browser's push subscriptions move to the account's follower (which every device the
 * listener signs in on uses); with no account follower yet, the guest one becomes it. Returns the
 * follower id the signed-in session keeps, or null when neither exists.
 */
export async function followerForAccount(userId: string, guestFollowerId: string | null | undefined): Promise<string | null> {
  return db().$transaction(async (tx) => {
    const account = await tx.showFollower.findUnique({ where: { userId }, select: { id: true } });
    const guest = guestFollowerId
      ? await tx.showFollower.findUnique({ where: { id: guestFollowerId }, select: { id: true, userId: true, follows: { select: { showId: true } } } })
      : null;
    // A follower of another account (a shared computer) is never taken over.
    const unowned = guest && guest.userId === null ? guest : null;
    if (!account) {
      if (!unowned) return null;
      await tx.showFollower.update({ where: { id: unowned.id }, data: { userId } });
      return unowned.id;
    }
    if (unowned && unowned.id !== account.id) {
      await tx.showFollow.createMany({ data: unowned.follows.map(({ showId }) => ({ followerId: account.id, showId })), skipDuplicates: true });
      await tx.pushSubscription.updateMany({ where: { followerId: unowned.id }, data: { followerId: account.id } });
      await tx.showFollower.delete({ where: { id: unowned.id } });
    }
    return account.id;
  });
}

/** Follows or unfollows a show; returns the follower id (new when there was none), or null when there is no such show. */
export async function setFollowing(input: {
  followerId: string | null | undefined;
  /** The signed-in listener: a follower made now is their account's. */
  userId?: string | null;
  slug: string;
  follow: boolean;
  language: Language;
  timeZone: string;
}): Promise<string | null> {
  const show = await db().show.findUnique({ where: { slug: input.slug }, select: { id: true } });
  if (!show) return null;
  if (!input.follow) {
    if (input.followerId) await db().showFollow.deleteMany({ where: { followerId: input.followerId, showId: show.id } });
    return input.followerId ?? null;
  }
  const followerId = await ensureFollower(input.followerId, input.userId, input.language, input.timeZone);
  await db().showFollow.createMany({ data: [{ followerId, showId: show.id }], skipDuplicates: true });
  return followerId;
}

/** What the show page shows this listener: whether they follow it, their calendar feed, and whether a browser of theirs gets pushes. */
export async function followingState(followerId: string | null | undefined, showId: string) {
  if (!followerId) return { following: false, calendarToken: null, pushSubscriptions: 0 };
  const follower = await db().showFollower.findUnique({
    where: { id: followerId },
    select: { calendarToken: true, follows: { where: { showId }, select: { showId: true } }, _count: { select: { subscriptions: true } } },
  });
  if (!follower) return { following: false, calendarToken: null, pushSubscriptions: 0 };
  return { following: follower.follows.length > 0, calendarToken: follower.calendarToken, pushSubscriptions: follower._count.subscriptions };
}

// ---------------------------------------------------------------- push subscriptions

const base64url = (bytes: number) =>
  z.string().refine((value) => /^[A-Za-z0-9_-]+={0,2}$/.test(value) && Buffer.from(value, "base64url").length === bytes, { message: "bad key" });

/** A browser's PushSubscription as JSON (PushSubscription.toJSON()). */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string().max(2048),
  keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
});

export type PushSubscriptionRefusal = "invalid" | "pushServiceRefused" | "notFollowing";

/**
 * Keeps a browser's subscription for the follower. Refused (nothing stored) when it is not a
 * subscription, when its endpoint is not at a push service the station sends to, or when the
 * listener follows nothing yet.
 */
export async function savePushSubscription(
  followerId: string | null | undefined,
  input: unknown,
): Promise<{ ok: true } | { ok: false; refusal: PushSubscriptionRefusal }> {
  const parsed = pushSubscriptionSchema.safeParse(input);
  if (!parsed.success) return { ok: false, refusal: "invalid" };
  if (!isAllowedPushEndpoint(parsed.data.endpoint, getConfig().pushServiceOrigins)) return { ok: false, refusal: "pushServiceRefused" };
  if (!followerId || !(await db().showFollower.findUnique({ where: { id: followerId }, select: { id: true } }))) return { ok: false, refusal: "notFollowing" };
  const { endpoint, keys } = parsed.data;
  await db().pushSubscription.upsert({
    where: { endpoint },
    create: { endpoint, p256dh: keys.p256dh, auth: keys.auth, followerId },
    update: { p256dh: keys.p256dh, auth: keys.auth, followerId },
  });
  return { ok: true };
}

// ---------------------------------------------------------------- VAPID keys

/** The station's VAPID keys: generated on the first start and stored, so every instance and restart signs with the same ones. */
export async function ensureVapidKeys(): Promise<VapidKeys> {
  const existing = await db().setting.findUnique({ where: { key: VAPID_SETTING } });
  if (existing) return JSON.parse(existing.value) as VapidKeys;
  // Two instances starting together: the first row written wins, both read it back.
  await db().setting.createMany({ data: [{ key: VAPID_SETTING, value: JSON.stringify(generateVapidKeys()) }], skipDuplicates: true });
  const stored = await db().setting.findUniqueOrThrow({ where: { key: VAPID_SETTING } });
  return JSON.parse(stored.value) as VapidKeys;
}

/** The public half, which browsers subscribe with (applicationServerKey). */
export async function vapidPublicKey(): Promise<string> {
  return (await ensureVapidKeys()).publicKey;
}

/** Who the push services may contact about the station's messages (RFC 8292 "sub"). */
async function vapidSubject(): Promise<string> {
  const email = getStationIdentity().email;
  if (email) return `mailto:${email}`;
  const origin = await canonicalOrigin();
  return origin?.startsWith("https:") ? origin : "mailto:postmaster@localhost";
}

// ---------------------------------------------------------------- sending

interface Message {
  key: string;
  /** The text in a follower's language and zone. */
  render(follower: { language: string; timeZone: string }): { title: string; body: string; url: string };
  /** How long the push service keeps it for a browser that is offline: a reminder is worthless once the show began. */
  ttlSeconds: number;
}

/**
 * Writes the delivery rows of one message for `subscriptions` and sends it to the ones this call
 * wrote (see the comment at the top). A push service that answers 404/410 has forgotten the
 * subscription: it is removed. Other failures take the row back, so a later check tries again.
 */
async function deliver(
  message: Message,
  subscriptions: { id: string; endpoint: string; p256dh: string; auth: string; follower: { language: string; timeZone: string } }[],
) {
  if (subscriptions.length === 0) return 0;
  const claimed = await db().pushDelivery.createManyAndReturn({
    data: subscriptions.map((subscription) => ({ subscriptionId: subscription.id, message: message.key })),
    skipDuplicates: true,
    select: { subscriptionId: true },
  });
  const ours = new Set(claimed.map((row) => row.subscriptionId));
  const keys = await ensureVapidKeys();
  const vapid = { ...keys, subject: await vapidSubject() };
  let sent = 0;
  for (const subscription of subscriptions.filter((candidate) => ours.has(candidate.id))) {
    const payload = JSON.stringify({ ...message.render(subscription.follower), tag: message.key });
    const outcome = await sendPushMessage(subscription, payload, vapid, { ttlSeconds: message.ttlSeconds });
    if (outcome === "sent") sent += 1;
    else if (outcome === "gone") await db().pushSubscription.deleteMany({ where: { id: subscription.id } });
    else await db().pushDelivery.deleteMany({ where: { subscriptionId: subscription.id, message: message.key } });
  }
  return sent;
}

const subscriptionSelect = { id: true, endpoint: true, p256dh: true, auth: true, follower: { select: { language: true, timeZone: true } } } as const;

function translatorFor(language: string) {
  return translator(serverI18n(isLanguage(language) ? language : getConfig().stationLanguage));
}

/**
 * Sends what is due at `now`: the reminder of every airing that starts within REMINDER_MINUTES
 * (and has not started) to the followers of its show, and the news of episodes of followed
 * shows published since. Returns how many messages went out. Safe to call from several
 * instances at once and again after a restart: nothing goes out twice.
 */
export async function sendDueReminders(now: Date): Promise<number> {
  let sent = 0;
  // Airings starting up to REMINDER_MINUTES from now, that one included (listAirings' end is exclusive).
  const soon = await listAirings(now, new Date(now.getTime() + REMINDER_MINUTES * 60_000 + 1));
  const station = getStationIdentity();
  for (const airing of soon) {
    const minutesLeft = Math.ceil((airing.start.getTime() - now.getTime()) / 60_000);
    if (airing.start <= now || minutesLeft > REMINDER_MINUTES) continue;
    const subscriptions = await db().pushSubscription.findMany({
      where: { follower: { follows: { some: { showId: airing.showId } } } },
      select: subscriptionSelect,
    });
    sent += await deliver(
      {
        key: `airing:${airing.showId}:${airing.start.toISOString()}`,
        ttlSeconds: Math.max(60, Math.round((airing.start.getTime() - now.getTime()) / 1000)),
        render: ({ language, timeZone }) => {
          const { t, locale } = translatorFor(language);
          const zone = validTimeZone(timeZone);
          return {
            title: t("schedule.reminderTitle", { show: airing.name, minutes: minutesLeft }),
            body: t("schedule.reminderBody", {
              start: timeIn(airing.start, zone, locale),
              end: timeIn(airing.end, zone, locale),
              zone: zoneAbbreviation(airing.start, zone, locale),
              station: station.name,
            }),
            url: "/listen",
          };
        },
      },
      subscriptions,
    );
  }

  const episodes = await db().podcastEpisode.findMany({
    where: { showId: { not: null }, listeningReady: true, publishedAt: { lte: now, gt: new Date(now.getTime() - NEW_EPISODE_WINDOW_MS) } },
    select: { id: true, title: true, publishedAt: true, showId: true, show: { select: { name: true } } },
  });
  for (const episode of episodes) {
    // Followers of the show from before it was published: following later is no news of it.
    const subscriptions = await db().pushSubscription.findMany({
      where: { follower: { follows: { some: { showId: episode.showId!, createdAt: { lt: episode.publishedAt } } } } },
      select: subscriptionSelect,
    });
    sent += await deliver(
      {
        key: `episode:${episode.id}`,
        ttlSeconds: 24 * 3600,
        render: ({ language }) => ({
          title: translatorFor(language).t("schedule.newEpisodeTitle", { show: episode.show!.name }),
          body: episode.title,
          url: `/play/${episode.id}`,
        }),
      },
      subscriptions,
    );
  }
  await db().pushDelivery.deleteMany({ where: { sentAt: { lt: new Date(now.getTime() - DELIVERY_MEMORY_MS) } } });
  return sent;
}

/** Checks every CHECK_EVERY_MS on the one instance holding the reminders' lock; returns the stop function. */
export function startReminderSender({ databaseUrl, log }: { databaseUrl: string; log: (line: string) => void }): () => Promise<void> {
  const stopping = new AbortController();
  const work = async (signal: AbortSignal) => {
    while (!signal.aborted) {
      await sendDueReminders(new Date()).catch((error: Error) => log(`Show reminders: ${error.message}`));
      await sleep(CHECK_EVERY_MS, signal);
    }
  };
  const running = leadFromOneInstance(databaseUrl, LOCK_NAME, work, () => {}, stopping.signal);
  return async () => {
    stopping.abort();
    await running.catch(() => {});
  };
}

// ---------------------------------------------------------------- calendar

/** The reminders of the follower with this calendar token as iCalendar (their shows, alarms before each airing); null for an unknown token. */
export async function remindersCalendar(token: string, baseUrl: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null;
  const follower = await db().showFollower.findUnique({
    where: { calendarToken: token },
    select: { language: true, follows: { select: { showId: true } } },
  });
  if (!follower) return null;
  return buildScheduleCalendar(baseUrl, {
    showIds: follower.follows.map((follow) => follow.showId),
    alarmMinutes: REMINDER_MINUTES,
    language: isLanguage(follower.language) ? follower.language : getConfig().stationLanguage,
  });
}
