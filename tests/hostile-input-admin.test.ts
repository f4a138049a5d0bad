import { DEMO_EVENTS } from "~/models/demo-content.server";
import { db } from "~/services/db.server";
import { adminCookie, testImage } from "./helpers/admin";
import { snapshotChanges, takeSnapshot } from "./helpers/snapshot";
import { startTestServer, type TestServer } from "./helpers/server";
import {
  CONTROL,
  expectClientError,
  expectRefusedAndUnchanged,
  freshSnapshot,
  GIF_POLYGLOT,
  HTML_PAGE,
  multipart,
  pixelBombPng,
  png,
  poster,
  SQL,
  SQL_OR,
  SVG_WITH_SCRIPT,
  TEXT_FILE,
  truncated,
  visibleText,
  XSS,
  type FilePart,
  type Part,
  type Poster,
} from "./helpers/hostile-input-corpus";

// The admin forms (crew, events, chart embeds, image uploads, cards) against
// hostile input: every refusal is a clear 4xx and leaves the database and
// storage exactly as they were; accepted text is shown escaped.

const NOT_AN_IMAGE = "not an image we accept";
const UNREADABLE = "could not be read";
const CONTROL_REFUSED = /characters that are not allowed/;

describe("hostile input: admin forms", () => {
  let server: TestServer;
  let post: Poster;
  let cookie: string;
  let picture: Buffer;
  let episodeId: number;

  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true" });
    post = poster(server.url);
    cookie = await adminCookie(server.url);
    picture = await testImage("#2a7de1", 320, 240);
    episodeId = (await db().podcastEpisode.findFirstOrThrow({ orderBy: { id: "asc" } })).id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const admin = (path: string, parts: Part[]) => () => post(path, multipart(parts), cookie);

  const crewFields = (overrides: Record<string, string | Buffer> = {}): Part[] =>
    Object.entries({
      formId: "member-form",
      intent: "save-member",
      name: "Hostile Tester",
      age: "30",
      email: "tester@example.com",
      jobTitle: "Producer",
      address: "Jl. Radio 1",
      bio: "Plays records.",
      ...overrides,
    });

  describe("crew (/CrewAdmin)", () => {
    const refusedFields: [string, Record<string, string | Buffer>, string | RegExp][] = [
      ["empty name", { name: "   " }, "Name is required."],
      ["name of 81 characters", { name: "x".repeat(81) }, "Name is too long (at most 80 characters)."],
      ["name over the field limit (70 KB)", { name: "x".repeat(70_000) }, "The field name is too long."],
      ["bio of 1001 characters", { bio: "b".repeat(1001) }, "Bio is too long (at most 1000 characters)."],
      ["negative age", { age: "-5" }, "Age must be a whole number between 1 and 120."],
      ["age 0", { age: "0" }, "Age must be a whole number between 1 and 120."],
      ["age NaN", { age: "NaN" }, "Age must be a whole number between 1 and 120."],
      ["age Infinity", { age: "Infinity" }, /Age (must be a whole number between 1 and 120|is too long)/],
      ["age 1e309", { age: "1e309" }, /Age (must be a whole number between 1 and 120|is too long)/],
      ["huge age", { age: "99999999999999999999" }, /Age (must be a whole number between 1 and 120|is too long)/],
      ["fractional age", { age: "12.5" }, /Age (must be a whole number between 1 and 120|is too long)/],
      ["hex age", { age: "0x1F" }, /Age (must be a whole number between 1 and 120|is too long)/],
      ["age as SQL", { age: SQL }, /Age (must be a whole number between 1 and 120|is too long)/],
      ["email with a script tag", { email: `${XSS.script}@example.com` }, "Enter an email address like name@example.com."],
      ["email as SQL", { email: SQL_OR }, "Enter an email address like name@example.com."],
      ["NUL in the name", { name: CONTROL.nul }, CONTROL_REFUSED],
      ["a bell character in the job title", { jobTitle: CONTROL.bell }, CONTROL_REFUSED],
      ["an escape sequence in the address", { address: CONTROL.escape }, CONTROL_REFUSED],
      ["DEL in the bio", { bio: CONTROL.delete }, CONTROL_REFUSED],
      ["invalid UTF-8 in the name", { name: Buffer.from([0x41, 0xff, 0xfe, 0x42]) }, CONTROL_REFUSED],
      ["an overlong UTF-8 slash in the bio", { bio: Buffer.from([0x61, 0xc0, 0xaf, 0x62]) }, CONTROL_REFUSED],
    ];

    it.each(refusedFields)("refuses %s (with a good photo) and changes nothing", async (_label, overrides, message) => {
      await expectRefusedAndUnchanged(admin("/CrewAdmin", [...crewFields(overrides), ["image", png(picture)]]), message, {
        status: 400,
        payload: typeof overrides.name === "string" ? overrides.name : undefined,
      });
    });

    it("refuses a new member without a photo", async () => {
      await expectRefusedAndUnchanged(admin("/CrewAdmin", crewFields()), "Photo is required.", { status: 400 });
    });

    it("refuses editing a member that does not exist (an id that is SQL) and keeps no uploaded photo", async () => {
      await expectRefusedAndUnchanged(admin("/CrewAdmin", [...crewFields({ id: SQL }), ["image", png(picture)]]), "That crew member no longer exists.", {
        status: 400,
      });
    });

    it("refuses deleting a member by an id that is SQL", async () => {
      await expectRefusedAndUnchanged(
        admin("/CrewAdmin", [
          ["intent", "delete-member"],
          ["id", SQL_OR],
        ]),
        "That crew member no longer exists.",
        { status: 400 },
      );
    });

    it("stores markup typed into the crew form as plain text and shows it escaped on /CrewSpin", async () => {
      const before = await freshSnapshot();
      const name = `${XSS.bold} ${XSS.imgOnerror}`.slice(0, 80);
      const bio = `${XSS.script} ${XSS.nested} ${XSS.svgOnload} ${SQL}`;
      const response = await admin("/CrewAdmin", [...crewFields({ name, bio, jobTitle: XSS.javascriptUrl }), ["image", png(await testImage("#c0ffee"))]])();
      expect(response.status).toBe(200);
      expect(await response.text()).not.toContain(XSS.script);
      const member = await db().crewMember.findFirstOrThrow({ where: { email: "tester@example.com" } });
      expect(member).toMatchObject({ name: name.trim(), bio, jobTitle: XSS.javascriptUrl });

      const page = await (await fetch(`${server.url}/CrewSpin`)).text();
      for (const raw of ["<b>hostile-bold</b>", "<img src=x onerror", XSS.script, "<svg onload", "<script>script>"]) expect(page).not.toContain(raw);
      expect(visibleText(page)).toContain(bio);
      expect(page).not.toMatch(/href="javascript:/i);
      // Nothing else changed: the member, its photo and the activity entry.
      const changed = snapshotChanges(before, await takeSnapshot()).map((change) => change.split(":")[0]);
      expect(changed.sort()).toEqual(["ActivityLog", "CrewMember", "StoredFile", "storage"]);

      const removed = await admin("/CrewAdmin", [
        ["intent", "delete-member"],
        ["id", member.id],
        ["name", name],
      ])();
      expect(removed.status).toBe(200);
    });
  });

  describe("events (/eventsAdmin)", () => {
    const event = (overrides: Record<string, string | Buffer>, withPoster = true): Part[] => [
      ...Object.entries({ formId: "event-form", intent: "save-event", name: "Hostile Night", date: "2030-05-01", time: "20:00", ...overrides }),
      ...(withPoster ? ([["poster", png(picture)]] as Part[]) : []),
    ];
    const refused: [string, Record<string, string | Buffer>, string | RegExp][] = [
      ["a blank name", { name: " \t " }, "Lengkapi semua data sebelum mengunggah."],
      ["a name of 121 characters", { name: "n".repeat(121) }, "The event name is too long (at most 120 characters)."],
      ["30 February", { date: "2030-02-30" }, "The date must be a real date (YYYY-MM-DD)."],
      ["a five-digit year", { date: "99999-01-01" }, "The date must be a real date (YYYY-MM-DD)."],
      ["a negative year", { date: "-001-01-01" }, "The date must be a real date (YYYY-MM-DD)."],
      ["a date that is NaN", { date: "NaN" }, "The date must be a real date (YYYY-MM-DD)."],
      ["a date that is SQL", { date: `2030-01-01'; DROP TABLE "Event"; --` }, "The date must be a real date (YYYY-MM-DD)."],
      ["24:00", { time: "24:00" }, "The time must be a time of day (HH:MM)."],
      ["a negative time", { time: "-1:00" }, "The time must be a time of day (HH:MM)."],
      ["a time with SQL after it", { time: "12:00; DROP TABLE Event" }, "The time must be a time of day (HH:MM)."],
      ["NUL in the name", { name: CONTROL.nul }, CONTROL_REFUSED],
      ["invalid UTF-8 in the name", { name: Buffer.from([0xe2, 0x28, 0xa1]) }, CONTROL_REFUSED],
    ];

    it.each(refused)("refuses %s and changes nothing", async (_label, overrides, message) => {
      // The spec's message is Indonesian: that answer is asked for in Indonesian.
      const path = message === "Lengkapi semua data sebelum mengunggah." ? "/eventsAdmin?lang=id" : "/eventsAdmin";
      await expectRefusedAndUnchanged(admin(path, event(overrides)), message, { status: 400 });
    });

    it("refuses an event without a poster with the spec's message", async () => {
      await expectRefusedAndUnchanged(admin("/eventsAdmin?lang=id", event({}, false)), "Lengkapi semua data sebelum mengunggah.", { status: 400 });
    });

    it("refuses deleting an event by an id that is SQL", async () => {
      await expectRefusedAndUnchanged(
        admin("/eventsAdmin", [
          ["intent", "delete-event"],
          ["id", SQL_OR],
        ]),
        "That event no longer exists.",
        { status: 400 },
      );
    });

    it("stores an event named with SQL and script as plain text: the table survives and /events shows it escaped", async () => {
      const before = await freshSnapshot();
      const name = `${SQL} ${XSS.script}`;
      const response = await admin("/eventsAdmin?lang=id", event({ name }))();
      expect(response.status).toBe(200);
      expect(visibleText(await response.text())).toContain("Event berhasil diunggah!");
      const stored = await db().event.findFirstOrThrow({ where: { name } });
      // The stored one beside the demo's upcoming events: the table survived.
      expect(await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "Event"`)).toEqual([{ n: 1 + DEMO_EVENTS.length }]);

      const page = await (await fetch(`${server.url}/events`)).text();
      expect(page).not.toContain(XSS.script);
      expect(visibleText(page)).toContain(name);
      const changed = snapshotChanges(before, await takeSnapshot()).map((change) => change.split(":")[0]);
      expect(changed.sort()).toEqual(["ActivityLog", "Event", "StoredFile", "storage"]);

      const removed = await admin("/eventsAdmin", [
        ["intent", "delete-event"],
        ["id", stored.id],
        ["name", name],
      ])();
      expect(removed.status).toBe(200);
    });
  });

  describe("chart embeds (/chartcontentadmin)", () => {
    const ONLY = "Only a single <iframe> player with an https address from";
    const tricks: [string, string][] = [
      ["a script", XSS.script],
      ["plain text", "just some words"],
      ["a javascript: src", '<iframe src="javascript:alert(1)"></iframe>'],
      ["a javascript: src with leading spaces and mixed case", '<iframe src="  JaVaScRiPt:alert(1)"></iframe>'],
      ["an entity-encoded javascript: src", "<iframe src=&#x6A;avascript:alert(1)></iframe>"],
      ["a data: src", '<iframe src="data:text/html,<script>alert(1)</script>"></iframe>'],
      ["a data: src in base64", '<iframe src="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></iframe>'],
      ["srcdoc without src", '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
      ["a host not on the allow-list", '<iframe src="https://evil.example/embed/x"></iframe>'],
      ["an allowed name as a subdomain of another host", '<iframe src="https://open.spotify.com.evil.example/embed/x"></iframe>'],
      ["an allowed name as the user part", '<iframe src="https://open.spotify.com@evil.example/embed/x"></iframe>'],
      ["credentials before an allowed host", '<iframe src="https://evil:pw@open.spotify.com/embed/x"></iframe>'],
      ["a port on an allowed host", '<iframe src="https://open.spotify.com:8443/embed/x"></iframe>'],
      ["http instead of https", '<iframe src="http://open.spotify.com/embed/x"></iframe>'],
      ["a protocol-relative src", '<iframe src="//open.spotify.com/embed/x"></iframe>'],
      ["two iframes", '<iframe src="https://open.spotify.com/embed/a"></iframe><iframe src="https://open.spotify.com/embed/b"></iframe>'],
      ["an iframe inside another tag", '<div><iframe src="https://open.spotify.com/embed/x"></iframe></div>'],
      ["a script after the iframe", '<iframe src="https://open.spotify.com/embed/x"></iframe><script>alert(1)</script>'],
      ["markup inside the iframe", '<iframe src="https://open.spotify.com/embed/x"><script>alert(1)</script></iframe>'],
      ["an img with onerror", XSS.imgOnerror],
      ["an svg with onload", XSS.svgOnload],
      ["an object tag", '<object data="https://open.spotify.com/embed/x"></object>'],
      ["a duplicated src", '<iframe src="https://open.spotify.com/embed/x" src="https://evil.example/"></iframe>'],
      ["SQL", SQL],
      ["a code of 5000 characters", `<iframe src="https://open.spotify.com/embed/x" title="${"t".repeat(5000)}"></iframe>`],
      ["a share link on a lookalike host", "https://open.spotify.com.evil.example/track/4cOdK2wGLETKBW3PvgPWqT"],
      ["a share link with the allowed name as the user part", "https://open.spotify.com@evil.example/track/4cOdK2wGLETKBW3PvgPWqT"],
      ["a javascript: link naming a share link", "javascript:alert(1)//open.spotify.com/track/4cOdK2wGLETKBW3PvgPWqT"],
      ["a share link whose id carries markup", 'https://open.spotify.com/track/4cOdK2wGLETKB"><script>alert(1)</script>'],
      ["a share link of 600 characters", `https://youtu.be/dQw4w9WgXcQ?si=${"a".repeat(570)}`],
    ];

    it.each(tricks)("refuses %s and changes nothing", async (_label, code) => {
      await expectRefusedAndUnchanged(
        admin("/chartcontentadmin", [
          ["formId", "embed-form"],
          ["intent", "add-embed"],
          ["code", code],
        ]),
        ONLY,
        {
          status: 400,
          payload: code,
        },
      );
    });

    it("refuses NUL inside an otherwise good embed", async () => {
      const code = '<iframe src="https://open.spotify.com/embed/x\u0000"></iframe>';
      await expectRefusedAndUnchanged(
        admin("/chartcontentadmin", [
          ["formId", "embed-form"],
          ["intent", "add-embed"],
          ["code", code],
        ]),
        CONTROL_REFUSED,
        { status: 400 },
      );
    });

    it("keeps only the player from an allowed iframe carrying handlers, srcdoc and styles, and renders it sandboxed", async () => {
      const before = await freshSnapshot();
      const code =
        '<IFRAME SRC="https://open.spotify.com/embed/episode/hostile" onload="alert(1)" srcdoc="&lt;script&gt;alert(2)&lt;/script&gt;" style="position:fixed;inset:0" allow="camera; autoplay" width="100%" height="152"></IFRAME>';
      const response = await admin("/chartcontentadmin", [
        ["formId", "embed-form"],
        ["intent", "add-embed"],
        ["code", code],
      ])();
      expect(response.status).toBe(200);
      const stored = await db().embed.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
      expect(stored.code).toMatch(/^<iframe src="https:\/\/open\.spotify\.com\/embed\/episode\/hostile" /);
      for (const dropped of ["onload", "srcdoc", "style", "camera", "alert"]) expect(stored.code).not.toContain(dropped);
      expect(stored.code).toContain('sandbox="');

      const page = await (await fetch(`${server.url}/Chart`)).text();
      expect(page).toContain("https://open.spotify.com/embed/episode/hostile");
      expect(page).not.toMatch(/onload=|srcdoc=|position:fixed/i);
      const changed = snapshotChanges(before, await takeSnapshot()).map((change) => change.split(":")[0]);
      expect(changed.sort()).toEqual(["ActivityLog", "Embed"]);

      const removed = await admin("/chartcontentadmin", [
        ["intent", "delete-embed"],
        ["id", stored.id],
      ])();
      expect(removed.status).toBe(200);
    });

    it("turns a plain share link into the service's sandboxed player, shown on /chartcontent", async () => {
      const before = await freshSnapshot();
      const response = await admin("/chartcontentadmin", [
        ["formId", "embed-form"],
        ["intent", "add-embed"],
        ["code", "  https://open.spotify.com/intl-id/album/1DFixLWuPkv3KT3TnV35m3?si=Xy_12  "],
      ])();
      expect(response.status).toBe(200);
      const stored = await db().embed.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
      expect(stored.code).toMatch(/^<iframe src="https:\/\/open\.spotify\.com\/embed\/album\/1DFixLWuPkv3KT3TnV35m3" title="[^"]+" width="100%" height="352" /);
      expect(stored.code).toContain('sandbox="');
      expect(stored.code).not.toContain("si=");

      const page = await (await fetch(`${server.url}/chartcontent`)).text();
      expect(page).toContain('src="https://open.spotify.com/embed/album/1DFixLWuPkv3KT3TnV35m3"');
      const changed = snapshotChanges(before, await takeSnapshot()).map((change) => change.split(":")[0]);
      expect(changed.sort()).toEqual(["ActivityLog", "Embed"]);

      const removed = await admin("/chartcontentadmin", [
        ["intent", "delete-embed"],
        ["id", stored.id],
      ])();
      expect(removed.status).toBe(200);
    });

    it("answers deleting an embed by an id that is SQL with a message", async () => {
      await expectRefusedAndUnchanged(
        admin("/chartcontentadmin", [
          ["intent", "delete-embed"],
          ["id", SQL_OR],
        ]),
        "That embed was already deleted.",
        { status: 400 },
      );
    });
  });

  describe("image uploads", () => {
    const files: [string, () => FilePart, string][] = [
      ["an HTML page named .png, sent as image/png", () => png(HTML_PAGE, "photo.png"), NOT_AN_IMAGE],
      ["an SVG with a script", () => ({ data: SVG_WITH_SCRIPT, filename: "logo.svg", type: "image/svg+xml" }), NOT_AN_IMAGE],
      ["an SVG with a script named .png", () => png(SVG_WITH_SCRIPT, "logo.png"), NOT_AN_IMAGE],
      ["a text file named .jpg", () => ({ data: TEXT_FILE, filename: "photo.jpg", type: "image/jpeg" }), NOT_AN_IMAGE],
      ["a GIF/script polyglot", () => ({ data: GIF_POLYGLOT, filename: "anim.gif", type: "image/gif" }), UNREADABLE],
      ["a truncated PNG", () => png(truncated(picture)), UNREADABLE],
      ["a PNG claiming 60000×60000 pixels", () => png(pixelBombPng()), UNREADABLE],
      ["an image over 10 MB", () => png(Buffer.concat([picture, Buffer.alloc(10 * 1024 * 1024)])), "The image is too large; the limit is 10 MB."],
    ];
    // Every upload goes through the same image check: the whole corpus on two forms, two files on the others.
    const endpoints: [string, string, () => Part[], string, "all" | "some"][] = [
      [
        "jumbotron",
        "/dashboard-admin",
        () => [
          ["formId", "jumbotron"],
          ["intent", "replace-jumbotron"],
        ],
        "image",
        "all",
      ],
      [
        "event poster",
        "/eventsAdmin",
        () => Object.entries({ formId: "event-form", intent: "save-event", name: "Poster test", date: "2030-01-01", time: "10:00" }),
        "poster",
        "all",
      ],
      [
        "new crew slider image",
        "/dashboard-admin",
        () => [
          ["formId", "crew-add"],
          ["intent", "add-crew-image"],
        ],
        "image",
        "some",
      ],
      [
        "crew slider image Crew1",
        "/dashboard-admin",
        () => [
          ["formId", "crew-Crew1"],
          ["intent", "replace-crew-image"],
          ["key", "Crew1"],
        ],
        "image",
        "some",
      ],
      [
        "card image",
        "/cardlistmoreadmin",
        () => [
          ["formId", `card-${episodeId}`],
          ["intent", "replace-card-image"],
          ["id", String(episodeId)],
        ],
        "image",
        "some",
      ],
      ["crew member photo", "/CrewAdmin", () => crewFields(), "image", "some"],
    ];
    const cases = endpoints.flatMap(([where, path, fields, fileField, which]) =>
      files
        .filter((_, index) => which === "all" || index === 0 || index === 5)
        .map(([what, file, message]) => [where, what, path, fields, fileField, file, message] as const),
    );

    it.each(cases)("%s: refuses %s and keeps nothing", async (_where, _what, path, fields, fileField, file, message) => {
      await expectRefusedAndUnchanged(admin(path, [...fields(), [fileField, file()]]), message, { status: 400 });
    });

    // Aimed from forms that are on the page (as a browser would post them), so the message is shown there.
    const NO_CARD = "That podcast card does not exist.";
    const UNKNOWN_ACTION = "That action is not known here.";
    const badTargets: [string, string, () => Part[], string][] = [
      [
        "a crew slider key that is a path",
        "/dashboard-admin",
        () => [
          ["formId", "crew-Crew1"],
          ["intent", "replace-crew-image"],
          ["key", "../../../etc/passwd"],
        ],
        "The crew image ../../../etc/passwd no longer exists.",
      ],
      [
        "a crew slider key that is SQL",
        "/dashboard-admin",
        () => [
          ["formId", "crew-Crew1"],
          ["intent", "replace-crew-image"],
          ["key", SQL],
        ],
        `The crew image ${SQL} no longer exists.`,
      ],
      [
        "a card id that is negative",
        "/cardlistmoreadmin",
        () => [
          ["formId", `card-${episodeId}`],
          ["intent", "replace-card-image"],
          ["id", "-1"],
        ],
        NO_CARD,
      ],
      [
        "a card id that is NaN",
        "/cardlistmoreadmin",
        () => [
          ["formId", `card-${episodeId}`],
          ["intent", "replace-card-image"],
          ["id", "NaN"],
        ],
        NO_CARD,
      ],
      [
        "a card id of 1e309",
        "/cardlistmoreadmin",
        () => [
          ["formId", `card-${episodeId}`],
          ["intent", "replace-card-image"],
          ["id", "1e309"],
        ],
        NO_CARD,
      ],
      [
        "a card id beyond any integer column",
        "/cardlistmoreadmin",
        () => [
          ["formId", `card-${episodeId}`],
          ["intent", "replace-card-image"],
          ["id", "99999999999"],
        ],
        NO_CARD,
      ],
      [
        "a card id that does not exist",
        "/cardlistmoreadmin",
        () => [
          ["formId", `card-${episodeId}`],
          ["intent", "replace-card-image"],
          ["id", "987654"],
        ],
        "That podcast card no longer exists.",
      ],
      [
        // A card is an episode with its own audio (made on /episodes-admin): there is no way to
        // add a card that plays another episode's audio any more.
        "the retired 'new card playing another episode' form",
        "/cardlistmoreadmin",
        () => [
          ["formId", "card-add"],
          ["intent", "add-card"],
          ["title", "Card"],
          ["audioFrom", String(episodeId)],
        ],
        UNKNOWN_ACTION,
      ],
    ];

    it.each(badTargets)("refuses a good image aimed at %s and keeps nothing", async (_label, path, fields, message) => {
      await expectRefusedAndUnchanged(admin(path, [...fields(), ["image", png(await testImage("#ff00aa"))]]), message, { status: 400 });
    });

    it("refuses deleting or moving a crew slider image by a key that is not one", async () => {
      await expectRefusedAndUnchanged(
        admin("/dashboard-admin", [
          ["formId", "delete-Crew1"],
          ["intent", "delete-crew-image"],
          ["key", SQL],
        ]),
        "no longer exists",
        { status: 400 },
      );
      await expectRefusedAndUnchanged(
        admin("/dashboard-admin", [
          ["formId", "down-Crew1"],
          ["intent", "move-crew-image"],
          ["key", "<script>"],
          ["direction", "sideways"],
        ]),
        "is already last",
        {
          status: 400,
        },
      );
    });

    it("refuses resetting a card image by an id beyond any integer column", async () => {
      await expectRefusedAndUnchanged(
        admin("/cardlistmoreadmin", [
          ["formId", `reset-${episodeId}`],
          ["intent", "reset-card-image"],
          ["id", "4294967296"],
        ]),
        NO_CARD,
        { status: 400 },
      );
    });
  });

  describe("the form reader itself", () => {
    it("refuses a multipart body cut off in the middle of the file", async () => {
      const { body, contentType } = multipart([...crewFields(), ["image", png(picture)]]);
      const cut = body.subarray(0, body.length - Math.floor(picture.length / 2));
      await expectRefusedAndUnchanged(() => post("/CrewAdmin", { body: cut, contentType }, cookie), /incomplete|could not be read|cut off/i, { status: 400 });
    });

    it("refuses a multipart body without its boundary", async () => {
      const { body } = multipart(crewFields());
      await expectRefusedAndUnchanged(() => post("/CrewAdmin", { body, contentType: "multipart/form-data" }, cookie), /could not be read|incomplete/i, {
        status: 400,
      });
    });

    it("refuses a body that says multipart but is something else", async () => {
      await expectRefusedAndUnchanged(
        () => post("/eventsAdmin", { body: "intent=save-event&name=x", contentType: "multipart/form-data; boundary=nothing-like-this" }, cookie),
        /could not be read|incomplete|not known/i,
        { status: 400 },
      );
    });

    it("refuses a form with too many fields", async () => {
      const parts: Part[] = Array.from({ length: 60 }, (_, i) => [`field${i}`, "x"]);
      await expectRefusedAndUnchanged(admin("/CrewAdmin", [...crewFields(), ...parts]), "That form has too many fields.", { status: 400 });
    });

    it("refuses an unknown intent", async () => {
      await expectRefusedAndUnchanged(admin("/eventsAdmin", [["intent", `drop-table${SQL}`]]), "That action is not known here.", { status: 400 });
    });

    it("refuses a body over 12 MB with 413 before reading it", async () => {
      await expectRefusedAndUnchanged(
        admin("/dashboard-admin", [
          ["intent", "replace-jumbotron"],
          ["image", png(Buffer.alloc(13 * 1024 * 1024, 1))],
        ]),
        "The request is too large",
        { status: 413 },
      );
    });

    it("refuses JSON sent to a form", async () => {
      await expectRefusedAndUnchanged(
        () => post("/CrewAdmin", { body: JSON.stringify({ intent: "save-member", name: XSS.script }), contentType: "application/json" }, cookie),
        /not known|could not be read/,
        { status: 400 },
      );
    });

    it("shows what was typed back escaped when a form is refused", async () => {
      const before = await freshSnapshot();
      const response = await admin("/CrewAdmin", crewFields({ name: XSS.script, age: "-1" }))();
      const body = await expectClientError(response, "Age must be a whole number between 1 and 120.", 400);
      expect(body).not.toContain(XSS.script);
      expect(snapshotChanges(before, await takeSnapshot())).toEqual([]);
    });
  });
});
