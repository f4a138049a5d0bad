import { readdirSync } from "node:fs";
import path from "node:path";
import { db } from "~/services/db.server";
import { adminCookie } from "./helpers/admin";
import { rawRequest } from "./helpers/raw-http";
import { startTestServer, type TestServer } from "./helpers/server";

/*
 * Issue 27, findings 5b and 5c. `/shows/a%00` and `/show-calendar/a%00` reached PostgreSQL with a
 * NUL (22021, a 500), as did an absolute-form target and `GET *`; and `/shows/..%2Fdashboard-admin.ics`
 * served the admin dashboard under an .ics URL, since the rewrite to /show-calendar decoded the `..`.
 * Every route with a parameter (read from app/routes, so a new one is covered too) gets hostile values;
 * none may answer 500.
 */

/** One URL per route with parameters: `{}` where each parameter goes. */
function parameterRoutes(): string[] {
  const files = readdirSync(path.resolve(__dirname, "../app/routes")).filter((name) => name.includes("$"));
  const routes = files.map((name) => {
    const segments = name
      .replace(/\.tsx?$/, "")
      .replace(/\[\.\]/g, "~dot~")
      .split(".")
      .map((segment) => segment.replace(/^\$\w*/, "{}").replaceAll("~dot~", "."));
    return `/${segments.join("/")}`;
  });
  // Served outside Remix: the .ics rewrite and stored media.
  return [...routes, "/shows/{}.ics", "/media/{}", "/media/episodes/{}"];
}

// Refused at the door (400): NUL and other controls, malformed escapes, bytes that are not UTF-8.
const MALFORMED = ["a%00", "%00", "a%00b", "%0a", "%7F", "%C3%28", "%FF", "%E2%82", "%ED%A0%80", "%C0%AF", "%", "a%zz", "%F4%90%80%80"];
// Well-formed but absurd: a 404, a 400 or a route's own refusal, never a 500.
const ODD = [
  "x".repeat(6000),
  "%F0%9F%93%BB".repeat(400),
  "-1",
  "1e309",
  "99999999999999999999999",
  "0x10",
  "NaN",
  "%20",
  "..%2F..%2Fetc",
  "%25",
  "%2500",
  "'%3B--",
];

describe("hostile request targets", () => {
  let server: TestServer;
  let admin: string;
  let slug: string;

  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true" });
    admin = await adminCookie(server.url);
    slug = (await db().show.findFirstOrThrow({ select: { slug: true } })).slug;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 400 to a parameter with NUL, a control character or bytes that are not UTF-8, on every route", async () => {
    const routes = parameterRoutes();
    expect(routes).toEqual(expect.arrayContaining(["/shows/{}", "/show-calendar/{}", "/favorites/{}", "/locales/{}.json"]));
    for (const route of routes) {
      for (const value of MALFORMED) {
        for (const method of ["GET", "POST"]) {
          const target = route.replace("{}", value);
          const response = await rawRequest(server.url, target, { method, headers: { Host: new URL(server.url).host, "Content-Length": "0" } });
          expect(response.status, `${method} ${target}`).toBe(400);
        }
      }
    }
    // The same in the query string, which the history search and others hand to PostgreSQL.
    for (const target of ["/history?q=a%00", "/history.json?q=%00", "/news?category=%C3%28", "/listen?x=%"]) {
      expect((await rawRequest(server.url, target)).status, target).toBe(400);
    }
  });

  it("never answers 500 to an absurd parameter, signed in as admin or not", async () => {
    for (const route of parameterRoutes()) {
      for (const value of ODD) {
        for (const cookie of [undefined, admin]) {
          const target = route.replace("{}", value);
          const response = await rawRequest(server.url, target, { headers: cookie ? { Cookie: cookie } : {} });
          expect(response.status, `${target.slice(0, 80)} ${cookie ? "(admin)" : ""}`).toBeLessThan(500);
        }
      }
    }
  });

  it("answers 400 to a target that is not a path: absolute form, `*`, no slash", async () => {
    const host = new URL(server.url).host;
    for (const [method, target] of [
      ["GET", `http://${host}/listen`],
      ["GET", "http://evil.example/listen"],
      ["GET", "https://evil.example/shows/a"],
      ["GET", "*"],
      ["OPTIONS", "*"],
      ["HEAD", "*"],
      ["GET", "listen"],
    ]) {
      const response = await rawRequest(server.url, target, { method });
      expect(response.status, `${method} ${target}`).toBe(400);
    }
    // Ordinary pages still answer.
    expect((await rawRequest(server.url, "/listen")).status).toBe(200);
    expect((await rawRequest(server.url, `/shows/${slug}`)).status).toBe(200);
    expect((await rawRequest(server.url, "/shows/caf%C3%A9")).status).toBe(404);
  });

  it("never serves another page under /shows/{slug}.ics: encoded traversal is a 404, a real show its calendar", async () => {
    const real = await rawRequest(server.url, `/shows/${slug}.ics`, { headers: { Cookie: admin } });
    expect(real.status).toBe(200);
    expect(real.headers["content-type"]).toMatch(/^text\/calendar/);
    const traversals = [
      "..%2Fdashboard-admin",
      "..%2fdashboard-admin",
      "..%5Cdashboard-admin",
      "..%5cdashboard-admin",
      "%2e%2e%2Fdashboard-admin",
      "%2E%2E%2fdashboard-admin",
      ".%2e%2Fdashboard-admin",
      "..%2F..%2Fdashboard-admin",
      "x%2F..%2F..%2Fdashboard-admin",
      "..%252Fdashboard-admin",
      "%252e%252e%252Fdashboard-admin",
      "%2e%2e",
      "%2e",
      "..%2F",
      "..%2Fepisodes-admin",
      "..%2F..%2Fhistory.csv",
      "..%5C..%5Cdashboard-admin",
    ];
    for (const segment of traversals) {
      for (const cookie of [admin, undefined]) {
        const response = await rawRequest(server.url, `/shows/${segment}.ics`, { headers: cookie ? { Cookie: cookie } : {} });
        const label = `/shows/${segment}.ics ${cookie ? "(admin)" : ""}`;
        // A show calendar or a 404 (400 for what is refused at the door); never a page, never a redirect into the admin area.
        expect([400, 404], label).toContain(response.status);
        expect(response.body, label).not.toMatch(/<html/i);
      }
    }
  });
});
