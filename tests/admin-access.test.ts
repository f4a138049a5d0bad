import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { verifyPin } from "~/models/pins.server";
import { db } from "~/services/db.server";
import { adminCookie, cookieFrom, postAdminForm, testImage } from "./helpers/admin";
import { startTestServer, type TestServer } from "./helpers/server";

// Every admin page, found the way Remix finds pages (a route module with a component) that ask for
// an admin session, not copied from the site's table: a page missing from the table fails below.
const ADMIN_PATHS = readdirSync("app/routes")
  .filter((file) => file.endsWith(".tsx") && /requireStaff\(/.test(readFileSync(`app/routes/${file}`, "utf8")))
  .map((file) => `/${file.replace(/\.tsx$/, "")}`);

/** A snapshot of everything an admin POST could change. */
async function contentSnapshot() {
  const client = db();
  return {
    events: await client.event.findMany({ orderBy: { id: "asc" } }),
    embeds: await client.embed.findMany({ orderBy: { id: "asc" } }),
    crewMembers: await client.crewMember.findMany({ orderBy: { id: "asc" } }),
    crewImages: await client.crewImage.findMany({ orderBy: { id: "asc" } }),
    siteImages: await client.siteImage.findMany(),
    episodes: await client.podcastEpisode.findMany({ orderBy: { id: "asc" }, select: { id: true, coverId: true, title: true } }),
    files: await client.storedFile.count(),
    activity: await client.activityLog.count(),
  };
}

function postPin(server: TestServer, fields: Record<string, string>, cookie = "") {
  return fetch(`${server.url}/pin`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: cookie ? { Cookie: cookie } : {},
    redirect: "manual",
  });
}

describe("admin access", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true" });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await db().rateLimit.deleteMany();
  });

  it.each(ADMIN_PATHS)("GET %s without a session redirects to /listen with the PIN dialog open", async (path) => {
    const response = await fetch(`${server.url}${path}?edit=x`, { redirect: "manual" });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!, server.url);
    expect(location.pathname).toBe("/listen");
    expect(location.searchParams.get("pin")).toBe("admin");
    expect(location.searchParams.get("redirectTo")).toBe(`${path}?edit=x`);
  });

  it("renders the admin PIN dialog open on that page without JavaScript", async () => {
    const html = await (await fetch(`${server.url}/listen?pin=admin&redirectTo=%2FCrewAdmin`)).text();
    expect(html).toMatch(/<dialog[^>]*class="pin-dialog"[^>]*open/);
    expect(html).toContain('name="redirectTo" value="/CrewAdmin"');
    expect(html).toMatch(/type="password"[^>]*name="pin"[^>]*maxLength="6"|maxLength="6"[^>]*type="password"/i);
  });

  const image = () => testImage("#123456");
  const forgedPosts: [string, Record<string, string>, boolean][] = [
    ["/dashboard-admin", { intent: "replace-jumbotron" }, true],
    ["/dashboard-admin", { intent: "add-crew-image" }, true],
    ["/dashboard-admin", { intent: "delete-crew-image", key: "Crew1" }, false],
    ["/dashboard-admin", { intent: "move-crew-image", key: "Crew2", direction: "up" }, false],
    ["/cardlistmoreadmin", { intent: "reset-card-image", id: "1" }, false],
    ["/cardlistmoreadmin", { intent: "replace-card-image", id: "1" }, true],
    ["/chartcontentadmin", { intent: "add-embed", code: '<iframe src="https://open.spotify.com/embed/x"></iframe>' }, false],
    ["/CrewAdmin", { intent: "save-member", name: "X", age: "20", email: "x@example.com", jobTitle: "DJ", address: "A", bio: "B" }, true],
    ["/eventsAdmin", { intent: "save-event", name: "Forged", date: "2030-01-01", time: "10:00" }, true],
  ];

  it.each(forgedPosts)("POST %s %j without a session is refused with 403 and changes nothing", async (path, fields, withImage) => {
    const before = await contentSnapshot();
    for (const cookie of ["", "__admin=forged-session-id", "__admin=s%3Anot-signed.abc"]) {
      const response = await postAdminForm(server.url, path, cookie, fields, withImage ? { image: await image(), poster: await image() } : {});
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("Admin access required");
    }
    expect(await contentSnapshot()).toEqual(before);
  });

  it("refuses a deletion and an embed with an expired session too", async () => {
    const cookie = await adminCookie(server.url);
    await db().adminSession.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    const before = await contentSnapshot();
    const response = await postAdminForm(server.url, "/dashboard-admin", cookie, { intent: "delete-crew-image", key: "Crew3" });
    expect(response.status).toBe(403);
    expect(await contentSnapshot()).toEqual(before);
  });

  it("answers a wrong PIN with 'Invalid PIN!' (401) and sets no session", async () => {
    for (const pin of ["000000", "12345", "1234567", "", "123456 ", "<script>"]) {
      const response = await postPin(server, { kind: "admin", pin });
      expect(response.status).toBe(401);
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(await response.text()).toContain("Invalid PIN!");
      await db().rateLimit.deleteMany();
    }
  });

  it("opens an admin session with a signed, HttpOnly, SameSite cookie and goes to the dashboard", async () => {
    const response = await postPin(server, { kind: "admin", pin: "123456" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard-admin");
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^__admin=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = cookieFrom(response);
    for (const path of ADMIN_PATHS) {
      const page = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(page.status, path).toBe(200);
    }
    // Tampering with the signed value is the same as having no session.
    const tampered = cookie.replace(/.(?=;|$)/, (c) => (c === "A" ? "B" : "A"));
    expect((await fetch(`${server.url}/CrewAdmin`, { headers: { Cookie: tampered }, redirect: "manual" })).status).toBe(302);
  });

  it("returns to the admin page that asked for the PIN, and never leaves the site", async () => {
    const back = await postPin(server, { kind: "admin", pin: "123456", redirectTo: "/eventsAdmin?edit=abc" });
    expect(back.headers.get("location")).toBe("/eventsAdmin?edit=abc");
    // Every admin page (schedule and recordings were once missing from a list of its own here).
    expect(ADMIN_PATHS.length).toBeGreaterThanOrEqual(8);
    for (const path of ADMIN_PATHS) {
      const response = await postPin(server, { kind: "admin", pin: "123456", redirectTo: `${path}?x=1` });
      expect(response.headers.get("location"), path).toBe(`${path}?x=1`);
      await db().rateLimit.deleteMany();
    }
    for (const redirectTo of ["https://evil.example/", "//evil.example", "/listen", "/dashboard-admin.evil"]) {
      const response = await postPin(server, { kind: "admin", pin: "123456", redirectTo });
      expect(response.headers.get("location")).toBe("/dashboard-admin");
    }
  });

  it("backs PIN attempts off per client: the sixth within a minute of the fifth gets 429 with a clear message, even with the right PIN", async () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await postPin(server, { kind: "admin", pin: "999999" })).status).toBe(401);
    }
    const blocked = await postPin(server, { kind: "admin", pin: "123456" });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("set-cookie")).toBeNull();
    expect(await blocked.text()).toMatch(/Too many attempts\. Please wait 1 minute and try again\./);
    // The refused attempt is not counted: waiting is enough, hammering does not lengthen the wait.
    const limit = await db().rateLimit.findFirstOrThrow({ where: { key: { startsWith: "pin:admin:", not: "pin:admin:station" } } });
    expect(limit.count).toBe(5);
  });

  it("rotates the session id on every PIN entry: the previous session stops working", async () => {
    const first = await adminCookie(server.url);
    const response = await postPin(server, { kind: "admin", pin: "123456" }, first);
    const second = cookieFrom(response);
    expect(second).not.toBe(first);
    expect((await fetch(`${server.url}/dashboard-admin`, { headers: { Cookie: first }, redirect: "manual" })).status).toBe(302);
    expect((await fetch(`${server.url}/dashboard-admin`, { headers: { Cookie: second }, redirect: "manual" })).status).toBe(200);
  });

  it("the public PIN (5 characters) leaves admin mode; a wrong one says 'Invalid PIN!'", async () => {
    const cookie = await adminCookie(server.url);
    const wrong = await postPin(server, { kind: "public", pin: "54320" }, cookie);
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Invalid PIN!");
    expect((await postPin(server, { kind: "public", pin: "123456" }, cookie)).status).toBe(401);
    expect((await fetch(`${server.url}/CrewAdmin`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(200);

    const right = await postPin(server, { kind: "public", pin: "54321" }, cookie);
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/listen");
    expect(right.headers.get("set-cookie")).toMatch(/__admin=;.*Max-Age=0/i);
    expect((await fetch(`${server.url}/CrewAdmin`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(302);
  });

  it("'Leave admin' ends the session without a PIN", async () => {
    const cookie = await adminCookie(server.url);
    const response = await postPin(server, { intent: "leave" }, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/listen");
    expect((await fetch(`${server.url}/eventsAdmin`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(302);
    const session = await db().adminSession.findFirst({ orderBy: { createdAt: "desc" } });
    expect(session!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("logs each admin change with the session it came from, shown on the dashboard", async () => {
    const cookie = await adminCookie(server.url);
    const response = await postAdminForm(server.url, "/chartcontentadmin", cookie, {
      formId: "embed-form",
      intent: "add-embed",
      code: '<iframe src="https://open.spotify.com/embed/episode/abc" width="100%" height="152"></iframe>',
    });
    expect(response.status).toBe(200);
    const entry = await db().activityLog.findFirstOrThrow({ where: { action: "embed.created" }, orderBy: { createdAt: "desc" } });
    const session = await db().adminSession.findFirstOrThrow({ where: { expiresAt: { gt: new Date() } }, orderBy: { createdAt: "desc" } });
    expect(entry.adminSessionId).toBe(session.id);
    const dashboard = await (await fetch(`${server.url}/dashboard-admin`, { headers: { Cookie: cookie } })).text();
    expect(dashboard).toContain("Added a chart player from open.spotify.com");
    // The page shows a fingerprint of the session, never the session id itself (it is the cookie's secret).
    expect(dashboard).not.toContain(session.id);
  });
});

describe("PIN comparison", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("accepts exactly the configured PINs", async () => {
    expect(await verifyPin("admin", "123456")).toBe(true);
    expect(await verifyPin("public", "54321")).toBe(true);
    for (const pin of ["", "1", "12345", "1234567", "123457", "023456", "54321"]) expect(await verifyPin("admin", pin)).toBe(false);
    for (const pin of ["5432", "543210", "54321 ", "123456"]) expect(await verifyPin("public", pin)).toBe(false);
  });

  it("compares in constant time: both sides hashed to equal length, then timingSafeEqual, never ===", async () => {
    const source = await readFile("app/models/pins.server.ts", "utf8");
    const verify = source.slice(source.indexOf("export async function verifyPin"));
    expect(verify).toContain("timingSafeEqual(");
    expect(verify).toMatch(/scryptAsync\(pin, salt, 32\).*scryptAsync\(configured, salt, 32\)/s);
    expect(verify).not.toMatch(/pin\s*===|===\s*configured|configured\s*===/);
  });
});
