import { clearNewsCache } from "~/services/news.server";
import { db } from "~/services/db.server";
import { registerUser } from "~/models/users.server";
import { cookieFrom } from "./helpers/admin";
import { startNewsStandIn, type NewsStandIn } from "./helpers/news-server";
import { snapshotChanges, takeSnapshot } from "./helpers/snapshot";
import { startTestServer, type TestServer } from "./helpers/server";
import {
  CONTROL,
  expectClientError,
  expectRefusedAndUnchanged,
  freshSnapshot,
  multipart,
  poster,
  SQL,
  SQL_OR,
  urlencoded,
  visibleText,
  XSS,
  type Poster,
} from "./helpers/hostile-input-corpus";

// The listener-facing forms and endpoints (PIN dialogs, registration form
// and JSON API, password sign-in, favourites, plays, news categories)
// against hostile input: a clear 4xx, no internals, nothing written.

const UNREADABLE = /could not be read/;
const NOT_ALLOWED = /characters that are not allowed/;

describe("hostile input: listener forms and endpoints", () => {
  let server: TestServer;
  let news: NewsStandIn;
  let post: Poster;
  let episodeId: number;

  beforeAll(async () => {
    news = await startNewsStandIn();
    server = await startTestServer({ SEED_CONTENT: "true", NEWS_API_URL: news.url });
    post = poster(server.url);
    episodeId = (await db().podcastEpisode.findFirstOrThrow({ where: { publishedAt: { lte: new Date() } } })).id;
  });
  afterAll(async () => {
    await server?.stop();
    await news?.close();
  });

  /** The same fields as a raw urlencoded body, so bytes that are not UTF-8 can be sent. */
  function rawUrlencoded(body: string) {
    return { body, contentType: "application/x-www-form-urlencoded" };
  }

  describe("PIN dialogs (/pin)", () => {
    const pins: [string, string][] = [
      ["an empty PIN", ""],
      ["a PIN one digit short", "12345"],
      ["a PIN one digit long", "1234567"],
      ["the right PIN with a NUL after it", "123456\u0000"],
      ["Arabic-Indic digits", "١٢٣٤٥٦"],
      ["full-width digits", "１２３４５６"],
      ["SQL", SQL_OR],
      ["a script", XSS.script],
      ["10 000 digits", "1".repeat(10_000)],
      ["the right PIN with a trailing space", "123456 "],
    ];

    it.each(pins)("answers %s to the admin PIN with 'Invalid PIN!' and changes nothing", async (_label, pin) => {
      await expectRefusedAndUnchanged(() => post("/pin", urlencoded({ kind: "admin", pin })), "Invalid PIN!", { status: 401, payload: pin });
    });

    it.each([
      ["the admin PIN", "123456"],
      ["the public PIN with a NUL", "54321\u0000"],
      ["SQL", SQL],
    ])("answers %s to the public PIN with 'Invalid PIN!' and changes nothing", async (_label, pin) => {
      await expectRefusedAndUnchanged(() => post("/pin", urlencoded({ kind: "public", pin })), "Invalid PIN!", { status: 401 });
    });

    it("treats an unknown kind as the admin dialog, and a script kind is never echoed raw", async () => {
      await expectRefusedAndUnchanged(() => post("/pin", urlencoded({ kind: XSS.script, pin: "54321" })), "Invalid PIN!", { status: 401, payload: XSS.script });
    });

    it("refuses invalid UTF-8 bytes as a PIN", async () => {
      await expectRefusedAndUnchanged(() => post("/pin", rawUrlencoded("kind=admin&pin=%FF%FE%FD%31%32%33")), "Invalid PIN!", { status: 401 });
    });

    it("refuses a body that is not a form", async () => {
      await expectRefusedAndUnchanged(
        () => post("/pin", { body: JSON.stringify({ kind: "admin", pin: "123456" }), contentType: "application/json" }),
        UNREADABLE,
        { status: 400 },
      );
    });

    it("refuses a truncated multipart body", async () => {
      const { body, contentType } = multipart([
        ["kind", "admin"],
        ["pin", "123456"],
      ]);
      await expectRefusedAndUnchanged(() => post("/pin", { body: body.subarray(0, body.length - 20), contentType }), UNREADABLE, { status: 400 });
    });
  });

  describe("registration (/register form and POST /users)", () => {
    const base = { name: "Rani", email: "rani@example.com", password: "correct horse", conPassword: "correct horse" };
    const refused: [string, Record<string, string>, string | RegExp][] = [
      ["all fields empty", { name: "", email: "", password: "", conPassword: "" }, "Please fill in name, email, password and confirm password."],
      ["a name of 81 characters", { name: "n".repeat(81) }, "Name must be at most 80 characters."],
      ["a name of 1 MB", { name: "n".repeat(1024 * 1024) }, "Name must be at most 80 characters."],
      ["a NUL in the name", { name: CONTROL.nul }, NOT_ALLOWED],
      ["an escape sequence in the name", { name: CONTROL.escape }, NOT_ALLOWED],
      ["an email that is a script", { email: `${XSS.script}@example.com` }, "Please enter a valid email address."],
      ["an email with an img handler", { email: `x${XSS.imgOnerror}@example.com` }, "Please enter a valid email address."],
      ["an email that is SQL", { email: SQL_OR }, "Please enter a valid email address."],
      ["a NUL in the email", { email: "rani\u0000@example.com" }, "Please enter a valid email address."],
      ["an email of 300 characters", { email: `${"e".repeat(290)}@example.com` }, "Please enter a valid email address."],
      ["a short password", { password: "short", conPassword: "short" }, "Password must be at least 8 characters."],
      ["a password of 100 000 characters", { password: "p".repeat(100_000), conPassword: "p".repeat(100_000) }, "Password must be at most 200 characters."],
      ["passwords that differ", { conPassword: "correct horsf" }, "Passwords do not match."],
    ];

    it.each(refused)("the form refuses %s with 400 and writes nothing", async (_label, overrides, message) => {
      const fields = { ...base, ...overrides };
      await expectRefusedAndUnchanged(() => post("/register", urlencoded(fields)), message, { status: 400, payload: fields.email });
    });

    it.each(refused)("POST /users refuses %s with {msg} and writes nothing", async (_label, overrides, message) => {
      const body = JSON.stringify({ ...base, ...overrides });
      // The API reads at most 16 KB of JSON: a larger body is refused as too large before any field is looked at.
      const tooLarge = Buffer.byteLength(body) > 16 * 1024;
      const text = await expectRefusedAndUnchanged(
        () => post("/users", { body, contentType: "application/json" }),
        tooLarge ? "The request is too large: at most 16 KB." : message,
        { status: tooLarge ? 413 : 400 },
      );
      expect(Object.keys(JSON.parse(text))).toEqual(["msg"]);
    });

    it("the form refuses invalid UTF-8 bytes in the name", async () => {
      const body = `name=%C3%28%A0&email=rani%40example.com&password=correct+horse&conPassword=correct+horse`;
      await expectRefusedAndUnchanged(() => post("/register", rawUrlencoded(body)), NOT_ALLOWED, { status: 400 });
    });

    it("POST /users refuses invalid UTF-8 bytes in the JSON", async () => {
      const body = Buffer.concat([
        Buffer.from('{"name":"R'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('","email":"rani@example.com","password":"correct horse","conPassword":"correct horse"}'),
      ]);
      await expectRefusedAndUnchanged(() => post("/users", { body, contentType: "application/json" }), NOT_ALLOWED, { status: 400 });
    });

    const notJson: [string, string][] = [
      ["malformed JSON", '{"name": "Rani", '],
      ["a JSON array", JSON.stringify([base])],
      ["a JSON string", JSON.stringify(XSS.script)],
      ["JSON null", "null"],
      ["an empty body", ""],
    ];

    it.each(notJson)("POST /users refuses %s with 400 {msg}", async (_label, body) => {
      await expectRefusedAndUnchanged(() => post("/users", { body, contentType: "application/json" }), "Send the registration as a JSON object", {
        status: 400,
      });
    });

    it.each([
      ["numbers", { name: Infinity, email: 42, password: -1, conPassword: -1 }],
      ["nested objects", { name: { $ne: "" }, email: ["a@b.co"], password: { toString: "x" }, conPassword: null }],
      [
        "a prototype key",
        JSON.parse('{"__proto__": {"name": "Polluted", "email": "p@example.com"}, "password": "correct horse", "conPassword": "correct horse"}'),
      ],
    ])("POST /users treats %s as missing fields", async (_label, value) => {
      await expectRefusedAndUnchanged(
        () => post("/users", { body: JSON.stringify(value), contentType: "application/json" }),
        "Please fill in name, email, password and confirm password.",
        { status: 400 },
      );
      expect(({} as Record<string, unknown>).name).toBeUndefined();
    });

    it("the form refuses a body that is not a form", async () => {
      await expectRefusedAndUnchanged(() => post("/register", { body: JSON.stringify(base), contentType: "application/json" }), UNREADABLE, { status: 400 });
    });

    it("refuses an email that is already registered on the form, whatever its case and spaces; the API does not tell", async () => {
      await registerUser({ ...base, email: "taken@example.com" }, "setup");
      await expectRefusedAndUnchanged(() => post("/register", urlencoded({ ...base, email: "  TAKEN@Example.com " })), "This email is already registered.", {
        status: 409,
      });
      // The JSON API answers a taken email like a new one (no account enumeration) and writes nothing.
      const before = await takeSnapshot();
      const api = await post("/users", { body: JSON.stringify({ ...base, email: "Taken@EXAMPLE.com" }), contentType: "application/json" });
      expect(api.status).toBe(201);
      expect(await api.json()).toMatchObject({ email: "taken@example.com" });
      expect(snapshotChanges(before, await takeSnapshot())).toEqual([]);
    });

    it("stores a name with markup as plain text and shows it escaped once signed in", async () => {
      const before = await freshSnapshot();
      const name = `${XSS.bold}${XSS.svgOnload}`.slice(0, 80);
      const created = await post("/users", { body: JSON.stringify({ ...base, name, email: "markup@example.com" }), contentType: "application/json" });
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ name, email: "markup@example.com" });
      const changed = snapshotChanges(before, await takeSnapshot()).map((change) => change.split(":")[0]);
      expect(changed).toEqual(["User"]);

      const signIn = await post("/login", urlencoded({ email: "markup@example.com", password: base.password }));
      expect(signIn.status).toBe(302);
      const page = await (await fetch(`${server.url}/listen`, { headers: { Cookie: cookieFrom(signIn) } })).text();
      expect(visibleText(page)).toContain("hostile-bold");
      expect(page).not.toContain("<b>hostile-bold</b>");
      expect(page).not.toContain("<svg onload");
    });
  });

  describe("password sign-in (/login)", () => {
    const WRONG = "Wrong email or password.";
    const attempts: [string, Record<string, string>][] = [
      ["an email that is SQL", { email: SQL_OR, password: "anything-at-all" }],
      ["a password that is SQL", { email: "taken@example.com", password: SQL_OR }],
      ["an email that is a script", { email: XSS.script, password: "anything-at-all" }],
      ["a NUL in the email", { email: "taken\u0000@example.com", password: "correct horse" }],
      ["a NUL in the password", { email: "taken@example.com", password: "correct\u0000horse" }],
      ["an email of 100 000 characters", { email: `${"e".repeat(100_000)}@example.com`, password: "correct horse" }],
      ["a password of 1 MB", { email: "taken@example.com", password: "p".repeat(1024 * 1024) }],
      ["empty fields", { email: "", password: "" }],
    ];

    it.each(attempts)("answers %s with 401 and sets no session", async (_label, fields) => {
      const before = await freshSnapshot();
      const response = await post("/login", urlencoded(fields));
      expect(response.headers.get("set-cookie")).toBeNull();
      const body = await expectClientError(response, WRONG, 401);
      expect(body).not.toContain(XSS.script);
      expect(snapshotChanges(before, await takeSnapshot())).toEqual([]);
    });

    it("refuses invalid UTF-8 bytes in the email", async () => {
      await expectRefusedAndUnchanged(() => post("/login", rawUrlencoded("email=taken%FF%40example.com&password=correct+horse")), WRONG, { status: 401 });
    });

    it("refuses a body that is not a form", async () => {
      await expectRefusedAndUnchanged(() => post("/login", { body: '{"email":"taken@example.com"}', contentType: "application/json" }), UNREADABLE, {
        status: 400,
      });
    });

    it("never redirects off the site after signing in", async () => {
      for (const redirectTo of ["https://evil.example/", "//evil.example", "javascript:alert(1)", "/\\evil.example"]) {
        await db().rateLimit.deleteMany();
        const response = await post("/login", urlencoded({ email: "taken@example.com", password: "correct horse", redirectTo }));
        expect(response.status).toBe(302);
        expect(response.headers.get("location")).toMatch(/^\/(?![/\\])/);
      }
    });
  });

  describe("favourites (/favorites/:id)", () => {
    let cookie: string;
    beforeAll(async () => {
      await registerUser({ name: "Fav", email: "fav@example.com", password: "correct horse", conPassword: "correct horse" }, "setup");
      await db().rateLimit.deleteMany();
      const signIn = await post("/login", urlencoded({ email: "fav@example.com", password: "correct horse" }));
      expect(signIn.status).toBe(302);
      cookie = cookieFrom(signIn);
    });

    const NO_EPISODE = "That episode does not exist.";
    const ids: [string, string][] = [
      ["a word", "abc"],
      ["a negative id", "-1"],
      ["zero", "0"],
      ["NaN", "NaN"],
      ["Infinity", "Infinity"],
      ["a fraction", "1.5"],
      ["an id beyond any integer column", "99999999999"],
      ["an id beyond a safe integer", "99999999999999999999"],
      ["an exponent", "1e3"],
      ["SQL", encodeURIComponent(SQL_OR)],
    ];

    it.each(ids)("answers %s as an episode with 404 and changes nothing", async (_label, id) => {
      await expectRefusedAndUnchanged(() => post(`/favorites/${id}`, urlencoded({ favorite: "true" }), cookie), NO_EPISODE, { status: 404 });
    });

    // A NUL never reaches a route: the server refuses the request target (tests/hostile-targets.test.ts).
    it("refuses a NUL in the episode id with 400 before the route, and changes nothing", async () => {
      await expectRefusedAndUnchanged(() => post("/favorites/1%00", urlencoded({ favorite: "true" }), cookie), "Bad request", { status: 400 });
    });

    it.each([["maybe"], ["TRUE"], [""], [XSS.script]])("refuses favorite=%j with 400", async (choice) => {
      await expectRefusedAndUnchanged(() => post(`/favorites/${episodeId}`, urlencoded({ favorite: choice }), cookie), "Say favorite=true or favorite=false.", {
        status: 400,
        payload: choice,
      });
    });

    it("refuses a body that is not a form", async () => {
      await expectRefusedAndUnchanged(
        () => post(`/favorites/${episodeId}`, { body: '{"favorite":true}', contentType: "application/json" }, cookie),
        UNREADABLE,
        { status: 400 },
      );
    });

    it("sends a listener who is not signed in to sign in, keeping only their mark in a session", async () => {
      const before = await freshSnapshot();
      const response = await post(`/favorites/${episodeId}`, urlencoded({ favorite: "true", redirectTo: "https://evil.example/" }));
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/login?redirectTo=%2Ffavorites");
      // The guest's ♡ waits in one new server-side session until they sign in; no favourite or anything else is written.
      const changes = snapshotChanges(before, await takeSnapshot());
      expect(changes.filter((change) => !change.startsWith("ListenerSession:"))).toEqual([]);
      const [, was, now] = /^ListenerSession: (\d+) → (\d+) rows/.exec(changes[0] ?? "") ?? [];
      expect(Number(now) - Number(was), changes.join("\n")).toBe(1);
    });

    it("never redirects off the site after marking a favourite", async () => {
      const response = await post(`/favorites/${episodeId}`, urlencoded({ favorite: "false", redirectTo: "//evil.example/x" }), cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toMatch(/^\/(?![/\\])/);
    });
  });

  describe("plays (/plays/:id)", () => {
    it.each(["abc", "-1", "0", "NaN", "1.5", "1e3", "9999999999", "99999999999999999999", encodeURIComponent(SQL), "%2e%2e%2f%2e%2e%2fadmin"])(
      "answers /plays/%s with 404 and counts nothing",
      async (id) => {
        await expectRefusedAndUnchanged(() => post(`/plays/${id}`, { body: "", contentType: "text/plain" }), "No such episode", { status: 404 });
      },
    );

    it("refuses /plays/1%00 with 400 before the route, and counts nothing", async () => {
      await expectRefusedAndUnchanged(() => post("/plays/1%00", { body: "", contentType: "text/plain" }), "Bad request", { status: 400 });
    });

    it("answers a GET with 405", async () => {
      const response = await fetch(`${server.url}/plays/${episodeId}`);
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    });
  });

  describe("news category (/news?category=)", () => {
    beforeEach(() => {
      clearNewsCache();
      news.scenario = "ok";
      news.requests.length = 0;
    });

    it.each([
      ["a script", XSS.script],
      ["an img handler", XSS.imgOnerror],
      ["a path that climbs out", "../../admin"],
      ["a path inside a known category", "terbaru/../../secret"],
      ["an encoded path", "%2e%2e%2fadmin"],
      ["SQL", SQL],
      ["a name of 10 000 characters", "x".repeat(10_000)],
      ["an absolute URL", "http://127.0.0.1:1/"],
    ])("answers %s with 404, shows it escaped and never asks the news API for it", async (_label, category) => {
      const body = await expectRefusedAndUnchanged(
        () => fetch(`${server.url}/news?category=${encodeURIComponent(category)}`),
        "There is no news category called",
        {
          status: 404,
          payload: category,
        },
      );
      expect(visibleText(body)).toContain("Pick one of the categories above.");
      for (const path of news.requests) expect(["/", "/cnn/terbaru/"]).toContain(path);
    });

    it("refuses a NUL in the category with 400 before the page, and never asks the news API", async () => {
      await expectRefusedAndUnchanged(() => fetch(`${server.url}/news?category=${encodeURIComponent("terbaru\u0000")}`), "Bad request", { status: 400 });
      expect(news.requests).toEqual([]);
    });
  });
});
