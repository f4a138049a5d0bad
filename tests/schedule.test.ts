import fs from "node:fs/promises";
import path from "node:path";
import ICAL from "ical.js";
import ical from "node-ical";
import { io as connect, type Socket } from "socket.io-client";
import { listAirings, createSlot, validateSlot, type SlotInput } from "~/models/schedule.server";
import { createShow, deleteShow } from "~/models/shows.server";
import { db } from "~/services/db.server";
import { dayKeyAt, wallKeyAt } from "~/utils/schedule-time";
import { instantOfWallTime, wallTimeAt } from "~/utils/time-zone";
import { objectKeys } from "~/models/files.server";
import { SEED_DIR } from "~/models/seed.server";
import { adminCookie, postAdminForm, storageKeys, testImage, unreferencedFiles } from "./helpers/admin";
import { startTestServer, type TestServer } from "./helpers/server";

// A non-default station zone with DST (the default, Asia/Jakarta, has none).
const ZONE = "Europe/Amsterdam";
const DAY_MS = 86_400_000;

function slot(input: Partial<SlotInput>) {
  const check = validateSlot({ kind: "weekly", days: [], startDate: "2026-01-01", startTime: "20:00", durationMinutes: 60, endDate: null, ...input });
  if (!check.ok) throw new Error(check.message);
  return check.value;
}

const isoStarts = (airings: { start: Date }[]) => airings.map((airing) => airing.start.toISOString());

/** Every programme row, to prove a refused change changed nothing. */
async function snapshot() {
  const [shows, hosts, slots, moves] = await Promise.all([
    db().show.findMany({ orderBy: { id: "asc" } }),
    db().showHost.findMany({ orderBy: [{ showId: "asc" }, { crewMemberId: "asc" }] }),
    db().showSlot.findMany({ orderBy: { id: "asc" } }),
    db().airingMove.findMany({ orderBy: { id: "asc" } }),
  ]);
  return JSON.stringify({ shows, hosts, slots, moves });
}

/**
 * Gives `showId` a one-off airing that started `minutesAgo` minutes ago. The other shows' weekly
 * slots from earlier tests (Sundays 20:00, Mondays/Wednesdays/Fridays 12:00) go first: one of them
 * may be on air right now, and the new airing would be refused as an overlap.
 */
async function airingNow(showId: string, minutesAgo: number, durationMinutes: number): Promise<Date> {
  await db().showSlot.deleteMany({ where: { showId: { not: showId } } });
  const from = new Date(Date.now() - minutesAgo * 60_000);
  const start = wallKeyAt(from, ZONE);
  await createSlot(showId, slot({ kind: "once", startDate: start.slice(0, 10), startTime: start.slice(11), durationMinutes }));
  return from;
}

describe("programme schedule", () => {
  let server: TestServer;
  let cookie: string;
  let jazzSlug: string;

  beforeAll(async () => {
    server = await startTestServer({ STATION_TIMEZONE: ZONE });
    cookie = await adminCookie(server.url);
    const jazz = await createShow({ name: "Evening Jazz", slug: "evening-jazz", description: "Late, slow, blue.", colour: "#3355ff", hostIds: [] });
    jazzSlug = jazz.slug;
    // Sundays 20:00 for two hours, around both 2026 changes (29 March and 25 October).
    await createSlot(jazz.id, slot({ days: ["SU"], startDate: "2026-03-01", startTime: "20:00", durationMinutes: 120 }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("keeps a weekly show at 20:00 station time across both DST changes", async () => {
    const spring = await listAirings(new Date("2026-03-21T00:00:00Z"), new Date("2026-04-06T00:00:00Z"));
    expect(isoStarts(spring)).toEqual(["2026-03-22T19:00:00.000Z", "2026-03-29T18:00:00.000Z", "2026-04-05T18:00:00.000Z"]);
    const autumn = await listAirings(new Date("2026-10-17T00:00:00Z"), new Date("2026-11-02T00:00:00Z"));
    expect(isoStarts(autumn)).toEqual(["2026-10-18T18:00:00.000Z", "2026-10-25T19:00:00.000Z", "2026-11-01T19:00:00.000Z"]);
    for (const airing of [...spring, ...autumn]) {
      expect(wallTimeAt(airing.start, ZONE)).toMatchObject({ hour: 20, minute: 0 });
      expect(airing.end.getTime() - airing.start.getTime()).toBe(2 * 3_600_000);
    }
  });

  it("airs a 02:30 special on the spring-forward night at 03:30 local (RFC 5545's rule for skipped times)", async () => {
    const night = await createShow({ name: "Night Shift", slug: "night-shift", description: "", colour: "#22aa66", hostIds: [] });
    await createSlot(night.id, slot({ kind: "once", startDate: "2026-03-29", startTime: "02:30", durationMinutes: 30 }));
    const [airing] = (await listAirings(new Date("2026-03-29T00:00:00Z"), new Date("2026-03-29T06:00:00Z"))).filter((a) => a.slug === "night-shift");
    expect(airing.start.toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(wallTimeAt(airing.start, ZONE)).toMatchObject({ hour: 3, minute: 30 });
  });

  it("refuses an overlapping slot with a clear message and keeps the programme as it was", async () => {
    const before = await snapshot();
    const response = await postAdminForm(server.url, "/schedule-admin", cookie, {
      formId: "slot-form",
      intent: "save-slot",
      showId: (await db().show.findUniqueOrThrow({ where: { slug: "night-shift" } })).id,
      kind: "weekly",
      "day-SU": "on",
      startDate: "2026-12-01",
      startTime: "21:00",
      duration: "60",
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain("That would overlap &quot;Evening Jazz&quot;");
    expect(text).toContain("Nothing was changed.");
    expect(await snapshot()).toBe(before);
  });

  it("admin: create, edit, cancel one airing, move one airing, delete, announced over socket.io", async () => {
    const socket: Socket = connect(server.url, { transports: ["websocket"] });
    const heard: unknown[] = [];
    socket.on("schedule:changed", (change) => heard.push(change));
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    const crew = await db().storedFile.create({ data: { key: "images/host.webp", contentType: "image/webp", size: 1, checksum: "h".repeat(64) } });
    const host = await db().crewMember.create({
      data: { name: "Dewi", age: 30, email: "dewi@example.com", jobTitle: "Host", address: "-", bio: "-", imageId: crew.id },
    });

    const create = await postAdminForm(server.url, "/schedule-admin", cookie, {
      formId: "show-form",
      intent: "save-show",
      name: "Morning Drive",
      description: "Wake up.",
      colour: "#ff8800",
      [`host-${host.id}`]: "on",
    });
    expect(create.status).toBe(200);
    const show = await db().show.findUniqueOrThrow({ where: { slug: "morning-drive" }, include: { hosts: true } });
    expect(show.hosts.map((h) => h.crewMemberId)).toEqual([host.id]);

    const edit = await postAdminForm(server.url, "/schedule-admin", cookie, {
      formId: "show-form",
      intent: "save-show",
      id: show.id,
      name: "Morning Drive",
      slug: "morning-drive",
      description: "Wake up!",
      colour: "#ff8800",
    });
    expect(edit.status).toBe(200);
    expect((await db().show.findUniqueOrThrow({ where: { id: show.id }, include: { hosts: true } })).hosts).toEqual([]);

    const addSlot = await postAdminForm(server.url, "/schedule-admin", cookie, {
      formId: "slot-form",
      intent: "save-slot",
      showId: show.id,
      kind: "weekly",
      "day-MO": "on",
      "day-TU": "on",
      startDate: "2026-11-01",
      startTime: "07:00",
      duration: "120",
      endDate: "2027-03-31",
    });
    expect(addSlot.status).toBe(200);
    const slotRow = await db().showSlot.findFirstOrThrow({ where: { showId: show.id } });
    expect(slotRow.rrule).toBe("FREQ=WEEKLY;BYDAY=MO,TU");

    const cancel = await postAdminForm(server.url, "/schedule-admin", cookie, {
      formId: "c",
      intent: "cancel-airing",
      slotId: slotRow.id,
      originalStart: "2026-12-01T07:00",
    });
    expect(cancel.status).toBe(200);
    const move = await postAdminForm(server.url, "/schedule-admin", cookie, {
      formId: "m",
      intent: "move-airing",
      slotId: slotRow.id,
      originalStart: "2026-12-07T07:00",
      newStart: "2026-12-07T09:30",
      duration: "60",
    });
    expect(move.status).toBe(200);
    const week = (await listAirings(new Date("2026-11-30T00:00:00Z"), new Date("2026-12-09T00:00:00Z"))).filter((a) => a.slug === "morning-drive");
    expect(week.map((a) => [a.start.toISOString(), a.moved])).toEqual([
      ["2026-11-30T06:00:00.000Z", false],
      ["2026-12-07T08:30:00.000Z", true],
      ["2026-12-08T06:00:00.000Z", false],
    ]);

    // Hostile and wrong input: refused, nothing changes.
    const before = await snapshot();
    const attempts: Record<string, string>[] = [
      { formId: "show-form", intent: "save-show", name: "x".repeat(101) },
      { formId: "show-form", intent: "save-show", name: "Evil", slug: "../admin" },
      { formId: "show-form", intent: "save-show", name: "Evil", colour: "red;background:url(x)" },
      { formId: "show-form", intent: "save-show", name: "Copy", slug: "evening-jazz" },
      { formId: "show-form", intent: "save-show", name: "Ghost host", "host-nope": "on" },
      { formId: "show-form", intent: "save-show", id: "missing", name: "Gone" },
      { formId: "slot-form", intent: "save-slot", showId: show.id, kind: "weekly", startDate: "2026-11-01", startTime: "07:00", duration: "60" },
      {
        formId: "slot-form",
        intent: "save-slot",
        showId: show.id,
        kind: "weekly",
        "day-MO": "on",
        startDate: "2026-02-30",
        startTime: "07:00",
        duration: "60",
      },
      {
        formId: "slot-form",
        intent: "save-slot",
        showId: show.id,
        kind: "weekly",
        "day-MO": "on",
        startDate: "2026-11-01",
        startTime: "25:00",
        duration: "60",
      },
      { formId: "slot-form", intent: "save-slot", showId: show.id, kind: "once", startDate: "2026-11-01", startTime: "07:00", duration: "0" },
      {
        formId: "slot-form",
        intent: "save-slot",
        showId: show.id,
        kind: "weekly",
        "day-MO": "on",
        startDate: "2026-11-01",
        startTime: "10:00",
        duration: "60",
        endDate: "2026-10-01",
      },
      { formId: "slot-form", intent: "save-slot", showId: "missing", kind: "once", startDate: "2026-11-01", startTime: "03:00", duration: "60" },
      {
        formId: "slot-form",
        intent: "save-slot",
        slotId: slotRow.id,
        kind: "weekly",
        "day-SU": "on",
        startDate: "2026-11-01",
        startTime: "20:30",
        duration: "60",
      },
      { formId: "c", intent: "cancel-airing", slotId: slotRow.id, originalStart: "2026-12-02T07:00" },
      { formId: "c", intent: "cancel-airing", slotId: slotRow.id, originalStart: '\'; DROP TABLE "Show"; --' },
      { formId: "c", intent: "cancel-airing", slotId: "missing", originalStart: "2026-12-01T07:00" },
      { formId: "m", intent: "move-airing", slotId: slotRow.id, originalStart: "2026-12-14T07:00", newStart: "2026-12-13T20:30", duration: "60" },
      { formId: "m", intent: "move-airing", slotId: slotRow.id, originalStart: "2026-12-14T07:00", newStart: "tomorrow", duration: "60" },
      { formId: "m", intent: "move-airing", slotId: slotRow.id, originalStart: "2026-12-14T07:00", newStart: "2026-12-14T08:00", duration: "-5" },
      { formId: "d", intent: "delete-show", id: "missing" },
      { formId: "d", intent: "delete-slot", slotId: "missing" },
      { formId: "x", intent: "drop-everything" },
    ];
    for (const fields of attempts) {
      const response = await postAdminForm(server.url, "/schedule-admin", cookie, fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
    }
    const anonymous = await postAdminForm(server.url, "/schedule-admin", "", { formId: "d", intent: "delete-show", id: show.id });
    expect(anonymous.status).toBe(403);
    expect(await snapshot()).toBe(before);

    const deleteSlot = await postAdminForm(server.url, "/schedule-admin", cookie, { formId: "d", intent: "delete-slot", slotId: slotRow.id });
    expect(deleteSlot.status).toBe(200);
    const deleteShow = await postAdminForm(server.url, "/schedule-admin", cookie, { formId: "d", intent: "delete-show", id: show.id });
    expect(deleteShow.status).toBe(200);
    expect(await db().show.findUnique({ where: { id: show.id } })).toBeNull();
    await expect.poll(() => heard.length).toBeGreaterThanOrEqual(7);
    socket.close();
  });

  it("/schedule.ics and a show's .ics parse strictly and expand to the airings /schedule lists", async () => {
    // A second show with an exception and a moved airing, so EXDATE and the extra VEVENT are exercised.
    const talk = await createShow({ name: "Talk, Talk; Talk", slug: "talk", description: "Line one\nline two", colour: "#aa22aa", hostIds: [] });
    const talkSlot = await createSlot(talk.id, slot({ days: ["MO", "WE", "FR"], startDate: "2026-03-02", startTime: "12:00", durationMinutes: 60 }));
    await db().showSlot.update({ where: { id: talkSlot.id }, data: { exdates: ["2026-03-25T12:00", "2026-03-27T12:00"] } });
    await db().airingMove.create({ data: { slotId: talkSlot.id, originalStart: "2026-03-27T12:00", newStart: "2026-03-28T15:00", durationMinutes: 90 } });

    // The week that holds the spring change (Sunday 29 March), as /schedule shows it (station
    // zone, no JavaScript). /schedule's weeks start on today's weekday, so which of the nearby
    // airings it holds depends on the day the test runs; any such week holds the Sunday's jazz
    // (after the change), a Monday talk and the moved Saturday airing or the next Wednesday and
    // Friday: three or more.
    const now = new Date();
    const today = wallTimeAt(now, ZONE);
    // Counted in the station's calendar days, as /schedule counts weeks from today: counted in
    // instants, it came out a week short on some afternoons.
    const daysToSpringChange = Math.round((Date.UTC(2026, 2, 29) - Date.UTC(today.year, today.month - 1, today.day)) / DAY_MS);
    const week = Math.floor(daysToSpringChange / 7);
    const html = await (await fetch(`${server.url}/schedule?week=${week}`)).text();
    const listed = [...html.matchAll(/data-start="([^"]+)"/g)].map((m) => m[1]).sort();
    const from = instantOfWallTime({ ...today, day: today.day + week * 7, hour: 0, minute: 0, second: 0 }, ZONE);
    const to = instantOfWallTime({ ...today, day: today.day + week * 7 + 7, hour: 0, minute: 0, second: 0 }, ZONE);
    expect(dayKeyAt(from, ZONE) <= "2026-03-29" && dayKeyAt(to, ZONE) > "2026-03-29").toBe(true);
    const inWeek = (iso: string) => Date.parse(iso) >= from.getTime() && Date.parse(iso) < to.getTime();
    expect(listed.length).toBeGreaterThanOrEqual(3);
    expect(listed.every(inWeek)).toBe(true);

    const text = await (await fetch(`${server.url}/schedule.ics`)).text();
    expect(text).toContain("RRULE:FREQ=WEEKLY;BYDAY=SU");
    expect(text).toContain(`EXDATE;TZID=${ZONE}:20260325T120000,20260327T120000`);

    // ical.js (strict: a parse error throws), with the calendar's own VTIMEZONE.
    const calendar = new ICAL.Component(ICAL.parse(text));
    for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
    const fromIcalJs: string[] = [];
    for (const component of calendar.getAllSubcomponents("vevent")) {
      const event = new ICAL.Event(component);
      const iterator = event.iterator();
      for (let next = iterator.next(); next && next.toJSDate() < to; next = iterator.next()) {
        const start = next.toJSDate().toISOString();
        if (inWeek(start)) fromIcalJs.push(start);
      }
    }
    expect(fromIcalJs.sort()).toEqual(listed);

    // node-ical, expanding RRULE and EXDATE itself.
    const parsed = ical.sync.parseICS(text);
    const fromNodeIcal: string[] = [];
    for (const item of Object.values(parsed)) {
      if (item?.type !== "VEVENT") continue;
      for (const instance of ical.expandRecurringEvent(item, { from: new Date(from.getTime() - DAY_MS), to })) {
        const start = new Date(instance.start).toISOString();
        if (inWeek(start)) fromNodeIcal.push(start);
      }
    }
    expect(fromNodeIcal.sort()).toEqual(listed);

    const one = await fetch(`${server.url}/shows/${jazzSlug}.ics`);
    expect(one.headers.get("content-type")).toContain("text/calendar");
    const oneText = await one.text();
    const oneCalendar = new ICAL.Component(ICAL.parse(oneText));
    expect(oneCalendar.getAllSubcomponents("vevent").map((e) => e.getFirstPropertyValue("summary"))).toEqual(["Evening Jazz"]);
    expect(Object.values(ical.sync.parseICS(oneText)).filter((item) => item?.type === "VEVENT")).toHaveLength(1);
    expect((await fetch(`${server.url}/shows/no-such-show.ics`)).status).toBe(404);
  });

  it("without JavaScript: the station's zone, and a zone picked by form", async () => {
    const page = await (await fetch(`${server.url}/schedule`)).text();
    expect(page).toMatch(/<form method="get"[^>]*class="zone-picker"/);
    expect(page).toContain(`data-testid="listener-zone">${ZONE}<`);
    const today = wallTimeAt(new Date(), ZONE);
    // The week from today that holds Wednesday 2 December, counted in calendar days as /schedule does.
    const week = Math.floor(Math.round((Date.UTC(2026, 11, 2) - Date.UTC(today.year, today.month - 1, today.day)) / DAY_MS) / 7);
    const picked = (await (await fetch(`${server.url}/schedule?tz=America%2FNew_York&week=${week}`)).text()).replaceAll("<!-- -->", "");
    expect(picked).toContain('data-testid="listener-zone">America/New_York<');
    // Evening Jazz, Sunday 20:00 in Amsterdam, is 14:00 in New York in December, with the station time beside it.
    expect(picked).toMatch(/14:00<\/time>–<time[^>]*>16:00<\/time><span class="airing__station-time"> \(station 20:00–22:00 CET\)/);
    const bogus = await (await fetch(`${server.url}/schedule?tz=%3Cscript%3E`)).text();
    expect(bogus).toContain(`data-testid="listener-zone">${ZONE}<`);
  });

  it("a show that began before the listener's midnight and runs past it is listed first on their today", async () => {
    // Half an hour either side of today's midnight in Tokyo (16:00 or 15:00 in Amsterdam): clear of
    // the other tests' slots, and true at any time of day the test runs.
    const listenerZone = "Asia/Tokyo";
    const night = await createShow({ name: "Midnight Hour", slug: "midnight-hour", description: "", colour: "#222266", hostIds: [] });
    try {
      const midnight = instantOfWallTime({ ...wallTimeAt(new Date(), listenerZone), hour: 0, minute: 0, second: 0 }, listenerZone);
      const from = new Date(midnight.getTime() - 30 * 60_000);
      const start = wallKeyAt(from, ZONE);
      await createSlot(night.id, slot({ kind: "once", startDate: start.slice(0, 10), startTime: start.slice(11), durationMinutes: 60 }));
      for (const query of [`tz=${encodeURIComponent(listenerZone)}`, `tz=${encodeURIComponent(listenerZone)}&week=0`]) {
        const html = (await (await fetch(`${server.url}/schedule?${query}`)).text()).replaceAll("<!-- -->", "");
        const days = [...html.matchAll(/<section[^>]*class="schedule-day"[\s\S]*?<\/section>/g)].map((match) => match[0]);
        expect(days).toHaveLength(7);
        expect(days[0]).toContain(`id="day-${dayKeyAt(new Date(), listenerZone)}"`);
        // First on today's list, and on no other day.
        const firstAiring = /<li[^>]*data-start="([^"]+)"/.exec(days[0])?.[1];
        expect(firstAiring).toBe(from.toISOString());
        expect(days.filter((day) => day.includes("Midnight Hour"))).toHaveLength(1);
      }
    } finally {
      await deleteShow(night.id);
    }
  });

  it("a show's page lists its next airings and links its hosts to their crew profile", async () => {
    const show = await db().show.findUniqueOrThrow({ where: { slug: jazzSlug } });
    const image = await db().storedFile.create({ data: { key: "images/host2.webp", contentType: "image/webp", size: 1, checksum: "i".repeat(64) } });
    const host = await db().crewMember.create({
      data: { name: "Rama", age: 40, email: "rama@example.com", jobTitle: "Host", address: "-", bio: "-", imageId: image.id },
    });
    await db().showHost.create({ data: { showId: show.id, crewMemberId: host.id, position: 0 } });
    const html = await (await fetch(`${server.url}/shows/${jazzSlug}`)).text();
    expect(html).toContain("Late, slow, blue.");
    // "Add to calendar" is an absolute address (it once read "[object Promise]/shows/…").
    expect(html).toMatch(new RegExp(`href="https?://[^"/]+/shows/${jazzSlug}\\.ics"`));
    expect(html).toContain(`href="/CrewSpin#crew-${host.id}">Rama</a>`);
    expect([...html.matchAll(/<li class="airing"/g)]).toHaveLength(8);
    expect(html).toContain(`/shows/${jazzSlug}.ics`);
    expect((await fetch(`${server.url}/shows/nope`)).status).toBe(404);
  });

  it("show artwork: added, replaced, refused and removed by the no-JS form, never leaving a file behind", async () => {
    const save = (fields: Record<string, string>, files: Record<string, Buffer> = {}) =>
      postAdminForm(
        server.url,
        "/schedule-admin",
        cookie,
        { formId: "show-form", intent: "save-show", slug: "art-hour", description: "", colour: "#aa3300", ...fields },
        files,
      );
    const artKeys = async () => (await storageKeys()).filter((key) => key.startsWith("show-artwork/"));
    const fileOf = async (slug: string) => (await db().show.findUniqueOrThrow({ where: { slug }, select: { artwork: true } })).artwork;

    expect((await save({ name: "Art Hour" }, { artwork: await testImage("#cc2200", 900, 900) })).status).toBe(200);
    const first = (await fileOf("art-hour"))!;
    expect(first.contentType).toBe("image/webp");
    expect(first.variantWidths.length).toBeGreaterThan(0);
    expect(await artKeys()).toEqual(objectKeys(first).sort());
    const show = await db().show.findUniqueOrThrow({ where: { slug: "art-hour" } });
    // On its page and, airing now, on the schedule and in the player bar's data.
    await airingNow(show.id, 10, 30);
    const page = await (await fetch(`${server.url}/shows/art-hour`)).text();
    const src = /class="show-page__art" src="(\/media\/[^"]+)"/.exec(page)?.[1];
    expect(src).toBeTruthy();
    expect((await fetch(`${server.url}${src}`)).headers.get("content-type")).toBe("image/webp");
    expect(await (await fetch(`${server.url}/schedule`)).text()).toMatch(/class="airing__art" src="\/media\/show-artwork\//);
    expect(await (await fetch(`${server.url}/listen`)).text()).toMatch(/class="on-air__art" src="\/media\/show-artwork\//);

    // Replaced: the old image and its copies go once the change is in.
    expect((await save({ id: show.id, name: "Art Hour" }, { artwork: await testImage("#0022cc", 700, 700) })).status).toBe(200);
    const second = (await fileOf("art-hour"))!;
    expect(second.key).not.toBe(first.key);
    expect(await artKeys()).toEqual(objectKeys(second).sort());
    expect(await db().storedFile.count({ where: { key: first.key } })).toBe(0);

    // A file that is not an image is refused: the show keeps its artwork and nothing is added.
    const refused = await save({ id: show.id, name: "Art Hour" }, { artwork: Buffer.from("not an image at all") });
    expect(refused.status).toBe(400);
    expect((await fileOf("art-hour"))!.key).toBe(second.key);
    expect(await artKeys()).toEqual(objectKeys(second).sort());

    // Saved without a file: kept. "Remove the artwork": gone, with its objects.
    expect((await save({ id: show.id, name: "Art Hour Two" })).status).toBe(200);
    expect((await fileOf("art-hour"))!.key).toBe(second.key);
    expect((await save({ id: show.id, name: "Art Hour", removeArtwork: "on" })).status).toBe(200);
    expect(await fileOf("art-hour")).toBeNull();
    expect(await artKeys()).toEqual([]);

    // Deleting a show with artwork takes its file too.
    expect((await save({ id: show.id, name: "Art Hour" }, { artwork: await testImage("#22cc00", 600, 600) })).status).toBe(200);
    expect(await artKeys()).toHaveLength(objectKeys((await fileOf("art-hour"))!).length);
    const deleted = await postAdminForm(server.url, "/schedule-admin", cookie, { formId: "delete-show", intent: "delete-show", id: show.id, name: "Art Hour" });
    expect(deleted.status).toBe(200);
    expect(await artKeys()).toEqual([]);
    // No recorded file is left that nothing points at (earlier tests' host images have no objects, so storage is compared by folder above).
    expect(await unreferencedFiles()).toEqual([]);
    expect(await db().storedFile.count({ where: { key: { startsWith: "show-artwork/" } } })).toBe(0);
  });

  it("an episode chosen for a show is listed on its page; deleting the show keeps the episode", async () => {
    const show = await createShow({ name: "Talk Back", slug: "talk-back", description: "", colour: "#118844", hostIds: [] });
    const [audio, cover] = await Promise.all(["audio/episode-1.mp3", "covers/cover-01.jpg"].map((file) => fs.readFile(path.join(SEED_DIR, file))));
    const form = new FormData();
    const fields = {
      formId: "episode-form",
      intent: "save-episode",
      title: "Talk Back: the first call",
      description: "Listeners call in.",
      publishedAt: "2026-01-10T20:00",
      showId: show.id,
    };
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.set("audio", new Blob([new Uint8Array(audio)]), "episode.mp3");
    form.set("cover", new Blob([new Uint8Array(cover)]), "cover.jpg");
    const posted = await fetch(`${server.url}/episodes-admin`, { method: "POST", body: form, headers: { Cookie: cookie }, redirect: "manual" });
    expect(posted.status).toBe(200);
    const episode = await db().podcastEpisode.findFirstOrThrow({ where: { title: fields.title } });
    expect(episode.showId).toBe(show.id);
    // The form offers the show, chosen, when the episode is edited.
    const editForm = await (await fetch(`${server.url}/episodes-admin?edit=${episode.id}`, { headers: { Cookie: cookie } })).text();
    expect(editForm).toMatch(new RegExp(`<option value="${show.id}" selected="">Talk Back</option>`));

    const page = await (await fetch(`${server.url}/shows/talk-back`)).text();
    expect(page).toContain(`aria-label="Episodes of Talk Back"`);
    // ▶ is a link to the play page without JavaScript (the bar plays it with JavaScript).
    expect(page).toMatch(new RegExp(`class="podcast-card__play" aria-label="Play ${fields.title}"[^>]* href="/play/${episode.id}"`));
    // Another show's page does not list it.
    expect(await (await fetch(`${server.url}/shows/${jazzSlug}`)).text()).not.toContain(fields.title);

    const deleted = await postAdminForm(server.url, "/schedule-admin", cookie, {
      formId: "delete-show",
      intent: "delete-show",
      id: show.id,
      name: "Talk Back",
    });
    expect(deleted.status).toBe(200);
    const kept = await db().podcastEpisode.findUniqueOrThrow({ where: { id: episode.id } });
    expect(kept.showId).toBeNull();
    expect(await (await fetch(`${server.url}/podcast.xml`)).text()).toContain(fields.title);
  });

  it("every page's player bar says what is on now (hosts, until when), also without JavaScript", async () => {
    const show = await createShow({ name: "Bar Show", slug: "bar-show", description: "", colour: "#884400", hostIds: [] });
    const from = await airingNow(show.id, 5, 15);
    // The airing starts on the minute `from` falls in (wall keys have no seconds).
    const end = new Date(Math.floor(from.getTime() / 60_000) * 60_000 + 15 * 60_000);
    const until = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: ZONE }).format(end);
    for (const pagePath of ["/events", "/schedule"]) {
      const html = (await (await fetch(`${server.url}${pagePath}`)).text()).replaceAll("<!-- -->", "");
      const line = /<p class="live-player__show" data-testid="player-on-air">(.*?)<\/p>/.exec(html)?.[1] ?? "";
      expect(line, pagePath).toContain(`href="/shows/bar-show">Bar Show</a>`);
      expect(line, pagePath).toContain(`until ${until}`);
    }
    await deleteShow(show.id);
    expect(await (await fetch(`${server.url}/events`)).text()).not.toContain("Bar Show");
  });
});
