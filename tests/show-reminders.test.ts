import ICAL from "ical.js";
import { db } from "~/services/db.server";
import { createSlot, validateSlot } from "~/models/schedule.server";
import { createShow } from "~/models/shows.server";
import { ensureVapidKeys, sendDueReminders } from "~/models/show-reminders.server";
import { startPushService, type PushService, type TestSubscription } from "./helpers/push-service";
import { startTestServer, type TestServer } from "./helpers/server";
import { Visitor } from "./helpers/visitor";

/*
 * Reminders for followed shows, through a local push service speaking the Web Push protocol.
 * The station is in Berlin, where clocks went back on 25 October 2026 (CEST → CET); one
 * listener is in New York, whose clocks change a week later, the other in Jakarta (no DST).
 * Time is faked by handing sendDueReminders the moment it runs at.
 */
describe("reminders of followed shows", () => {
  let push: PushService;
  let server: TestServer;
  const listeners: { visitor: Visitor; subscription: TestSubscription; zone: string }[] = [];

  beforeAll(async () => {
    push = await startPushService();
    server = await startTestServer({ STATION_TIMEZONE: "Europe/Berlin", PUSH_SERVICE_ORIGINS: push.origin });
    const show = await db().show.create({ data: { slug: "ngopi-pagi", name: "Ngopi Pagi" } });
    // Every morning at 07:00 Berlin time from 23 to 27 October 2026 only (so the server's own sender, on the real clock, has nothing to send).
    // Through the model, as an admin would: it announces the change, so the programme kept in memory is read again.
    const slot = validateSlot({
      kind: "weekly",
      days: ["MO", "TU", "WE", "TH", "FR", "SA", "SU"],
      startDate: "2026-10-23",
      startTime: "07:00",
      durationMinutes: 120,
      endDate: "2026-10-27",
    });
    if (!slot.ok) throw new Error(slot.message);
    await createSlot(show.id, slot.value);
    for (const [language, zone] of [
      ["en", "America/New_York"],
      ["id", "Asia/Jakarta"],
    ] as const) {
      const visitor = new Visitor(server.url);
      visitor.cookies.set("lang", language);
      listeners.push({ visitor, subscription: push.subscribe(), zone });
    }
  });
  afterAll(async () => {
    await server?.stop();
    await push?.close();
  });

  it("lets a listener follow a show and keep a push subscription, refusing what is not one", async () => {
    for (const { visitor, subscription, zone } of listeners) {
      // Before following there is nothing to remind of.
      const early = await visitor.request("/push-subscriptions", {
        method: "POST",
        body: JSON.stringify(subscription),
        headers: { "Content-Type": "application/json" },
      });
      expect(early.status).toBe(409);
      const followed = await visitor.post("/shows/ngopi-pagi", { intent: "follow", timeZone: zone });
      expect([followed.status, followed.headers.get("location")]).toEqual([302, "/shows/ngopi-pagi"]);
      const page = await visitor.page("/shows/ngopi-pagi");
      expect(page).toMatch(/aria-pressed="true"/);
      const refusals = [
        { ...subscription, endpoint: "https://push.evil.example/push/1" },
        { ...subscription, endpoint: "http://169.254.169.254/latest" },
        { ...subscription, keys: { ...subscription.keys, p256dh: "AAAA" } },
        { endpoint: subscription.endpoint },
      ];
      for (const body of refusals) {
        const refused = await visitor.request("/push-subscriptions", {
          method: "POST",
          body: JSON.stringify(body),
          headers: { "Content-Type": "application/json" },
        });
        expect(refused.status).toBe(400);
      }
      const saved = await visitor.request("/push-subscriptions", {
        method: "POST",
        body: JSON.stringify(subscription),
        headers: { "Content-Type": "application/json" },
      });
      expect(saved.status).toBe(204);
    }
    expect((await db().pushSubscription.findMany({ select: { endpoint: true } })).map((row) => row.endpoint).sort()).toEqual(
      listeners.map((listener) => listener.subscription.endpoint).sort(),
    );
    const bad = await listeners[0].visitor.post("/shows/ngopi-pagi", { intent: "maybe" });
    expect(bad.status).toBe(400);
    expect((await listeners[0].visitor.post("/shows/no-such-show", { intent: "follow" })).status).toBe(404);
  });

  it("sends exactly one reminder per airing at 5 minutes before, across the DST change, in each listener's language and zone", async () => {
    // 07:00 in Berlin: 05:00 UTC in summer time, 06:00 UTC after the clocks went back on the 25th.
    const airings = ["2026-10-24T05:00:00Z", "2026-10-25T06:00:00Z", "2026-10-26T06:00:00Z"].map((at) => new Date(at));
    const minutes = (at: Date, delta: number) => new Date(at.getTime() + delta * 60_000);
    const sentAt: string[] = [];
    const tick = async (now: Date, copies = 1) => {
      const before = push.received.length;
      await Promise.all(Array.from({ length: copies }, () => sendDueReminders(now)));
      for (let i = before; i < push.received.length; i++) sentAt.push(now.toISOString());
    };
    for (const airing of airings) {
      // A minute early nothing goes; at its minute one (two instances checking at once), then never again: later checks, a restart, the airing itself.
      await tick(minutes(airing, -6));
      await tick(minutes(airing, -5.5));
      await tick(minutes(airing, -5), 2);
      await tick(minutes(airing, -4.9));
      await tick(minutes(airing, -1), 2);
      await tick(minutes(airing, 1));
    }
    expect(push.refused).toEqual([]);
    const [english, indonesian] = listeners.map(({ subscription }) => push.received.filter((r) => r.subscriptionId === subscription.id));
    expect(english.map((r) => [r.message.title, r.message.body, r.message.url])).toEqual([
      ["Ngopi Pagi starts in 5 minutes", "On air 01:00–03:00 GMT-4 · SPIN RADIO", "/listen"],
      ["Ngopi Pagi starts in 5 minutes", "On air 02:00–04:00 GMT-4 · SPIN RADIO", "/listen"],
      ["Ngopi Pagi starts in 5 minutes", "On air 02:00–04:00 GMT-4 · SPIN RADIO", "/listen"],
    ]);
    expect(indonesian.map((r) => [r.message.title, r.message.body])).toEqual([
      ["Ngopi Pagi mulai 5 menit lagi", "Mengudara 12.00–14.00 WIB · SPIN RADIO"],
      ["Ngopi Pagi mulai 5 menit lagi", "Mengudara 13.00–15.00 WIB · SPIN RADIO"],
      ["Ngopi Pagi mulai 5 menit lagi", "Mengudara 13.00–15.00 WIB · SPIN RADIO"],
    ]);
    // Each at its airing's minute, two listeners each.
    expect(sentAt).toEqual(airings.flatMap((airing) => [minutes(airing, -5).toISOString(), minutes(airing, -5).toISOString()]));
    expect(new Set(push.received.map((r) => r.message.tag)).size).toBe(3);
    expect(push.received.every((r) => r.ttl === 300 && r.vapidKey === push.received[0].vapidKey)).toBe(true);
    // The key browsers subscribe with is the one generated on the first start and kept in the database.
    expect(push.received[0].vapidKey).toBe((await ensureVapidKeys()).publicKey);
  });

  it("announces a new episode of a followed show once, and forgets a subscription the push service no longer knows", async () => {
    const show = await db().show.findUniqueOrThrow({ where: { slug: "ngopi-pagi" } });
    const file = (key: string, contentType: string) => db().storedFile.create({ data: { key, contentType, size: 1, checksum: key } });
    const [cover, audio] = await Promise.all([file("covers/reminder-test.webp", "image/webp"), file("audio/reminder-test.mp3", "audio/mpeg")]);
    const publishedAt = new Date();
    const episode = await db().podcastEpisode.create({
      data: { title: "Ngopi Pagi: kopi dan kampus", description: "", coverId: cover.id, audioId: audio.id, durationSeconds: 60, publishedAt, showId: show.id },
    });
    push.expire(listeners[1].subscription.id);
    const before = push.received.length;
    await Promise.all([sendDueReminders(new Date(publishedAt.getTime() + 1000)), sendDueReminders(new Date(publishedAt.getTime() + 1000))]);
    await sendDueReminders(new Date(publishedAt.getTime() + 60_000));
    const news = push.received.slice(before);
    expect(news.map((r) => [r.subscriptionId, r.message.title, r.message.body, r.message.url])).toEqual([
      [listeners[0].subscription.id, "New episode of Ngopi Pagi", "Ngopi Pagi: kopi dan kampus", `/play/${episode.id}`],
    ]);
    expect(await db().pushSubscription.count({ where: { endpoint: listeners[1].subscription.endpoint } })).toBe(0);
    expect(await db().pushSubscription.count()).toBe(1);
  });

  it("keeps a signed-in listener's follows on every device they sign in on, joining what they followed as a guest", async () => {
    await createShow({ name: "Sore Santai", slug: "sore-santai", description: "", colour: "#2563eb", hostIds: [] });
    // The show page's button says "Stop following …" (pressed) to a follower.
    const following = async (visitor: Visitor, slug: string) => /aria-pressed="true" aria-label="Stop following/.test(await visitor.page(`/shows/${slug}`));
    const credentials = { email: "follower@example.com", password: "correct horse battery" };
    // On a phone, as a guest, then registering there.
    const phone = new Visitor(server.url);
    await phone.post("/shows/ngopi-pagi", { intent: "follow", timeZone: "Asia/Jakarta" });
    const guestFollower = await db().showFollower.count();
    const registered = await phone.post("/register", { name: "Follower", ...credentials, conPassword: credentials.password });
    expect(registered.status).toBe(302);
    const user = await db().user.findUniqueOrThrow({ where: { email: credentials.email }, select: { id: true } });
    const accountFollower = await db().showFollower.findUniqueOrThrow({ where: { userId: user.id }, include: { follows: true } });
    expect(accountFollower.follows.map((follow) => follow.showId)).toHaveLength(1);
    expect(await db().showFollower.count()).toBe(guestFollower); // the guest's follower became the account's
    // On a laptop, another show followed as a guest before signing in: both now, on both devices.
    const laptop = new Visitor(server.url);
    await laptop.post("/shows/sore-santai", { intent: "follow", timeZone: "Asia/Jakarta" });
    expect(await db().showFollower.count()).toBe(guestFollower + 1);
    expect((await laptop.post("/login", credentials)).status).toBe(302);
    expect(await db().showFollower.count()).toBe(guestFollower); // the laptop's guest follower joined the account's
    for (const device of [phone, laptop]) {
      expect(await following(device, "ngopi-pagi")).toBe(true);
      expect(await following(device, "sore-santai")).toBe(true);
    }
    // A guest elsewhere sees none of it.
    const stranger = new Visitor(server.url);
    expect(await following(stranger, "sore-santai")).toBe(false);
  });

  it("gives the same reminders as the listener's own calendar feed, alarms included", async () => {
    const follower = await db().showFollower.findFirstOrThrow({ where: { timeZone: "America/New_York" } });
    const response = await fetch(`${server.url}/reminders/${follower.calendarToken}/calendar.ics`);
    expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const calendar = new ICAL.Component(ICAL.parse(await response.text()));
    const [event] = calendar.getAllSubcomponents("vevent");
    expect(event.getFirstPropertyValue("summary")).toBe("Ngopi Pagi");
    const alarm = event.getFirstSubcomponent("valarm")!;
    expect([alarm.getFirstPropertyValue("action"), String(alarm.getFirstPropertyValue("trigger"))]).toEqual(["DISPLAY", "-PT5M"]);
    // In the language each listener followed in (a calendar app sends no cookie to tell it).
    expect(alarm.getFirstPropertyValue("description")).toBe("Ngopi Pagi starts in 5 minutes");
    const other = await db().showFollower.findFirstOrThrow({ where: { timeZone: "Asia/Jakarta" } });
    const theirs = new ICAL.Component(ICAL.parse(await (await fetch(`${server.url}/reminders/${other.calendarToken}/calendar.ics`)).text()));
    expect(theirs.getAllSubcomponents("vevent")[0].getFirstSubcomponent("valarm")!.getFirstPropertyValue("description")).toBe("Ngopi Pagi mulai 5 menit lagi");
    expect((await fetch(`${server.url}/reminders/${"x".repeat(32)}/calendar.ics`)).status).toBe(404);
    // Unfollowing empties it.
    await listeners[0].visitor.post("/shows/ngopi-pagi", { intent: "unfollow" });
    const emptied = new ICAL.Component(ICAL.parse(await (await fetch(`${server.url}/reminders/${follower.calendarToken}/calendar.ics`)).text()));
    expect(emptied.getAllSubcomponents("vevent")).toEqual([]);
  });
});
