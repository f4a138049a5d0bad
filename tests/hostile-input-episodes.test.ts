import fs from "node:fs/promises";
import path from "node:path";
import { db } from "~/services/db.server";
import { adminCookie } from "./helpers/admin";
import { snapshotChanges, stagedUploads, takeSnapshot } from "./helpers/snapshot";
import { startTestServer, type TestServer } from "./helpers/server";
import {
  CONTROL,
  expectRefusedAndUnchanged,
  freshSnapshot,
  HTML_PAGE,
  lyingWav,
  multipart,
  poster,
  SQL,
  SQL_OR,
  SVG_WITH_SCRIPT,
  TEXT_FILE,
  TINY_PNG,
  truncated,
  visibleText,
  XSS,
  type FilePart,
  type Part,
  type Poster,
} from "./helpers/hostile-input-corpus";

// The EPISODES upload form (/episodes-admin) against hostile input: lying
// and wrong file types, oversized and cut-off uploads, bad text and dates.
// Every refusal is a 400 with a message and leaves no row and no file.

const SEED = path.resolve("prisma/seed-assets");
const NOT_AUDIO = "That file is not audio we accept: upload an MP3, M4A, WAV, FLAC or AIFF file.";
const DAMAGED_AUDIO = "The audio file could not be read (it may be damaged or truncated)";
const NOT_ALLOWED = /characters that are not allowed/;

describe("hostile input: episode uploads", () => {
  let server: TestServer;
  let post: Poster;
  let cookie: string;
  let mp3: Buffer;
  let cover: Buffer;
  let episodeId: number;

  const audioPart = (data: Buffer, filename = "episode.mp3", type = "audio/mpeg"): FilePart => ({ data, filename, type });
  const coverPart = (data: Buffer, filename = "cover.jpg", type = "image/jpeg"): FilePart => ({ data, filename, type });
  const fields = (overrides: Record<string, string | Buffer> = {}): Part[] =>
    Object.entries({
      formId: "episode-form",
      intent: "save-episode",
      title: "Hostile Hour",
      description: "An episode used to test refusals.",
      publishedAt: "2026-01-10T20:00",
      ...overrides,
    });
  const send = (parts: Part[]) => () => post("/episodes-admin", multipart(parts), cookie);

  beforeAll(async () => {
    server = await startTestServer();
    post = poster(server.url);
    cookie = await adminCookie(server.url);
    [mp3, cover] = await Promise.all(["audio/episode-1.mp3", "covers/cover-01.jpg"].map((file) => fs.readFile(path.join(SEED, file))));
    const created = await send([...fields({ title: "Existing episode" }), ["audio", audioPart(mp3)], ["cover", coverPart(cover)]])();
    expect(created.status).toBe(200);
    episodeId = (await db().podcastEpisode.findFirstOrThrow()).id;
  });
  // Every refusal also removes the audio it staged on disk.
  afterEach(async () => {
    expect(await stagedUploads(server.dataDir)).toEqual([]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const badAudio: [string, () => FilePart, string][] = [
    ["a text file named .mp3, sent as audio/mpeg", () => audioPart(TEXT_FILE), NOT_AUDIO],
    ["a PNG sent as audio", () => audioPart(TINY_PNG, "song.mp3"), NOT_AUDIO],
    ["an HTML page sent as audio/mpeg", () => audioPart(HTML_PAGE, "episode.mp3"), NOT_AUDIO],
    ["an SVG with a script sent as audio", () => audioPart(SVG_WITH_SCRIPT, "episode.svg", "image/svg+xml"), NOT_AUDIO],
    ["an MP3 cut off after 64 bytes", () => audioPart(truncated(mp3, 64)), DAMAGED_AUDIO],
    ["an ID3 header followed by garbage", () => audioPart(Buffer.concat([mp3.subarray(0, 10), Buffer.alloc(4096, 0x41)])), DAMAGED_AUDIO],
    ["a WAV header that claims an hour and has no sound", () => audioPart(lyingWav(), "episode.wav", "audio/wav"), DAMAGED_AUDIO],
  ];

  it.each(badAudio)("refuses %s with a good cover, keeping no file", async (_label, audio, message) => {
    await expectRefusedAndUnchanged(send([...fields(), ["audio", audio()], ["cover", coverPart(cover)]]), message, { status: 400 });
  });

  const badCovers: [string, () => FilePart, string][] = [
    ["an HTML page named .jpg", () => coverPart(HTML_PAGE), "not an image we accept"],
    ["an SVG with a script", () => coverPart(SVG_WITH_SCRIPT, "cover.svg", "image/svg+xml"), "not an image we accept"],
    ["an MP3 sent as the cover", () => coverPart(mp3, "cover.png", "image/png"), "not an image we accept"],
    ["a cut-off JPEG", () => coverPart(truncated(cover, 200)), "could not be read"],
  ];

  it.each(badCovers)("refuses %s as the cover with good audio, and keeps no audio file either", async (_label, file, message) => {
    await expectRefusedAndUnchanged(send([...fields(), ["audio", audioPart(mp3)], ["cover", file()]]), message, { status: 400 });
  });

  it("refuses a cover over 10 MB with 413 without keeping the audio", async () => {
    const big = Buffer.concat([cover, Buffer.alloc(10 * 1024 * 1024)]);
    await expectRefusedAndUnchanged(send([...fields(), ["audio", audioPart(mp3)], ["cover", coverPart(big)]]), "The image is too large; the limit is 10 MB.", {
      status: 413,
    });
  });

  it("refuses audio over 200 MB with 413 after reading past it, keeping nothing (not even a temp file)", async () => {
    const huge = Buffer.concat([mp3, Buffer.alloc(200 * 1024 * 1024)]);
    await expectRefusedAndUnchanged(
      send([...fields(), ["audio", audioPart(huge)], ["cover", coverPart(cover)]]),
      "The audio file is too large; the limit is 200 MB.",
      { status: 413 },
    );
  });

  it("refuses a second audio file in one form", async () => {
    await expectRefusedAndUnchanged(
      send([...fields(), ["audio", audioPart(mp3)], ["audio", audioPart(mp3)], ["cover", coverPart(cover)]]),
      "That form has an unexpected file.",
      { status: 400 },
    );
  });

  it("refuses an unexpected file field", async () => {
    await expectRefusedAndUnchanged(
      send([...fields(), ["script", { data: HTML_PAGE, filename: "x.html", type: "text/html" }]]),
      "That form has an unexpected file.",
      { status: 400 },
    );
  });

  const badText: [string, Record<string, string | Buffer>, string | RegExp][] = [
    ["a title of 201 characters", { title: "t".repeat(201) }, "Keep the title under 200 characters."],
    ["a description over the field limit (70 KB)", { description: "d".repeat(70_000) }, "The field description is too long."],
    ["a publish date that is not one", { publishedAt: "2026-02-30T10:00" }, "Choose the date and time the episode goes out."],
    ["a publish date in year 275760", { publishedAt: "275760-09-13T00:00" }, "Choose the date and time the episode goes out."],
    ["a publish date that is NaN", { publishedAt: "NaN" }, "Choose the date and time the episode goes out."],
    ["a publish date that is SQL", { publishedAt: SQL }, "Choose the date and time the episode goes out."],
    ["NUL in the title", { title: CONTROL.nul }, NOT_ALLOWED],
    ["an escape sequence in the description", { description: CONTROL.escape }, NOT_ALLOWED],
    ["invalid UTF-8 in the title", { title: Buffer.from([0x48, 0xc3, 0x28, 0x69]) }, NOT_ALLOWED],
  ];

  it.each(badText)("refuses %s with good files, keeping nothing", async (_label, overrides, message) => {
    await expectRefusedAndUnchanged(send([...fields(overrides), ["audio", audioPart(mp3)], ["cover", coverPart(cover)]]), message, { status: 400 });
  });

  it("refuses editing an episode by an id that is SQL, or too large for any episode", async () => {
    for (const id of [SQL_OR, "99999999999", "-1", "1e3"]) {
      await expectRefusedAndUnchanged(send([...fields({ id, title: "Edited" })]), /deleted meanwhile|does not exist|nothing was saved/i, { status: 400 });
    }
  });

  it("answers deleting an episode by an id that is SQL with a message", async () => {
    await expectRefusedAndUnchanged(
      send([
        ["formId", "episode-form"],
        ["intent", "delete-episode"],
        ["id", SQL_OR],
      ]),
      "That episode was already deleted.",
      { status: 400 },
    );
  });

  it("refuses an upload cut off in the middle of the audio, keeping nothing", async () => {
    const { body, contentType } = multipart([...fields(), ["cover", coverPart(cover)], ["audio", audioPart(mp3)]]);
    const cut = body.subarray(0, body.length - Math.floor(mp3.length / 2));
    await expectRefusedAndUnchanged(() => post("/episodes-admin", { body: cut, contentType }, cookie), /could not be read|incomplete/i, { status: 400 });
  });

  it("refuses a multipart body without its boundary, and JSON", async () => {
    const { body } = multipart(fields());
    await expectRefusedAndUnchanged(() => post("/episodes-admin", { body, contentType: "multipart/form-data" }, cookie), /could not be read|incomplete/i, {
      status: 400,
    });
    await expectRefusedAndUnchanged(
      () => post("/episodes-admin", { body: JSON.stringify({ intent: "save-episode", title: XSS.script }), contentType: "application/json" }, cookie),
      /could not be read|not known/i,
      { status: 400 },
    );
  });

  it("stores a title with markup as plain text and shows it escaped on the play page", async () => {
    const before = await freshSnapshot();
    const title = `${XSS.script} ${SQL}`;
    const description = `${XSS.imgOnerror}\n${XSS.nested}`;
    const response = await send([...fields({ title, description }), ["audio", audioPart(mp3)], ["cover", coverPart(cover)]])();
    expect(response.status).toBe(200);
    const episode = await db().podcastEpisode.findFirstOrThrow({ where: { title } });
    expect(episode.description).toBe(description);
    // The same audio and cover as the existing episode: content-addressed, so only the row and the log entry are new.
    const changed = snapshotChanges(before, await takeSnapshot()).map((change) => change.split(":")[0]);
    expect(changed.sort()).toEqual(["ActivityLog", "PodcastEpisode"]);

    const page = await (await fetch(`${server.url}/play/${episode.id}`)).text();
    expect(visibleText(page)).toContain(title);
    for (const raw of [XSS.script, "<img src=x onerror", "<script>script>"]) expect(page).not.toContain(raw);
    const feed = await (await fetch(`${server.url}/podcast.xml`)).text();
    expect(feed).not.toContain(XSS.script);

    const removed = await send([
      ["formId", "episode-form"],
      ["intent", "delete-episode"],
      ["id", String(episode.id)],
      ["title", "x"],
    ])();
    expect(removed.status).toBe(200);
    expect(await db().podcastEpisode.findUnique({ where: { id: episodeId } })).not.toBeNull();
  });
});
