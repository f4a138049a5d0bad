import { podcastLiveItems } from "~/models/live-items.server";
import { createSlot, listAirings } from "~/models/schedule.server";
import { createShow } from "~/models/shows.server";
import { startTestServer, type TestServer } from "./helpers/server";

// The feed's podcast:liveItem entries follow the programme: the airing that ended within a day,
// the one on air and the next one, whatever the clock says (the feed passes the real time).
describe("podcast:liveItem from the programme", () => {
  let server: TestServer;
  let airings: { name: string; start: Date; end: Date }[];

  beforeAll(async () => {
    server = await startTestServer({ STATION_TIMEZONE: "Asia/Jakarta" });
    for (const [name, startTime] of [
      ["Morning Specials", "10:00"],
      ["Noon Specials", "12:00"],
      ["Afternoon Specials", "14:00"],
    ] as const) {
      const slug = name.toLowerCase().replace(/ /g, "-");
      const show = await createShow({ name, slug, description: "", colour: "#3355ff", hostIds: [] });
      await createSlot(show.id, { startDate: "2027-03-01", startTime, durationMinutes: 60, rrule: null, endDate: null });
    }
    airings = await listAirings(new Date("2027-02-28T00:00:00Z"), new Date("2027-03-03T00:00:00Z"));
    expect(airings.map((airing) => airing.name)).toEqual(["Morning Specials", "Noon Specials", "Afternoon Specials"]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const at = (instant: Date, minutes: number) => new Date(instant.getTime() + minutes * 60_000);
  const summary = async (now: Date) =>
    (await podcastLiveItems("https://radio.example", now)).map((item) => [item.status, item.title, item.start.toISOString()]);

  it("announces the next airing as pending before anything aired", async () => {
    expect(await summary(at(airings[0].start, -120))).toEqual([["pending", "Morning Specials", airings[0].start.toISOString()]]);
  });

  it("lists the last ended, the live and the pending airing while one is on air", async () => {
    expect(await summary(at(airings[1].start, 30))).toEqual([
      ["ended", "Morning Specials", airings[0].start.toISOString()],
      ["live", "Noon Specials", airings[1].start.toISOString()],
      ["pending", "Afternoon Specials", airings[2].start.toISOString()],
    ]);
  });

  it("between airings: the one that ended and the one coming, nothing live", async () => {
    expect((await summary(at(airings[1].end, 30))).map(([status, title]) => [status, title])).toEqual([
      ["ended", "Noon Specials"],
      ["pending", "Afternoon Specials"],
    ]);
  });

  it("forgets an ended airing after a day, and keeps a stable guid for the same airing", async () => {
    expect(await summary(at(airings[2].end, 25 * 60))).toEqual([]);
    const first = await podcastLiveItems("https://radio.example", at(airings[1].start, 10));
    const again = await podcastLiveItems("https://radio.example", at(airings[1].start, 50));
    expect(again.map((item) => item.guid)).toEqual(first.map((item) => item.guid));
  });
});
