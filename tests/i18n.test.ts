import { db } from "~/services/db.server";
import { catalogJson } from "~/i18n/catalogs.server";
import { startTestServer, type TestServer } from "./helpers/server";
import { Visitor } from "./helpers/visitor";

/** The language a page was rendered in, as its <html lang> and Content-Language header say. */
async function pageLanguage(response: Response): Promise<{ lang: string | undefined; header: string | null }> {
  expect(response.status).toBe(200);
  const html = await response.text();
  return { lang: /<html lang="([^"]*)"/.exec(html)?.[1], header: response.headers.get("Content-Language") };
}

const PASSWORD = "correct horse battery";

describe("the page's language", () => {
  let server: TestServer;
  beforeAll(async () => {
    // The product's default: the station speaks Indonesian (tests elsewhere run in English).
    server = await startTestServer({ STATION_LANGUAGE: "id", SEED_CONTENT: "true" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(new URL(path, server.url), { headers });

  it("is the station's language when the browser names none of ours", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { "Accept-Language": "fr-FR, de;q=0.5" },
      { "Accept-Language": "*" },
      { "Accept-Language": "en;q=nonsense" },
    ]) {
      expect(await pageLanguage(await get("/events", headers))).toEqual({ lang: "id", header: "id" });
    }
  });

  it("follows Accept-Language on a first visit, also through the page cache", async () => {
    // /listen is kept for anonymous visitors: each language is its own kept page.
    for (let round = 0; round < 2; round++) {
      expect((await pageLanguage(await get("/listen", { "Accept-Language": "en-US,en;q=0.9" }))).lang).toBe("en");
      expect((await pageLanguage(await get("/listen", { "Accept-Language": "id-ID,id;q=0.9,en;q=0.8" }))).lang).toBe("id");
      expect((await pageLanguage(await get("/listen", { "Accept-Language": "de, en;q=0.3" }))).lang).toBe("en");
    }
    const response = await get("/listen", { "Accept-Language": "en" });
    expect(response.headers.get("Vary")).toMatch(/Accept-Language/);
  });

  it("prefers a choice remembered in the cookie, and a link's ?lang= above all", async () => {
    const english = { "Accept-Language": "en", Cookie: "lang=id" };
    expect((await pageLanguage(await get("/listen", english))).lang).toBe("id");
    expect((await pageLanguage(await get("/listen?lang=en", english))).lang).toBe("en");
    // A forged cookie value is no choice at all.
    expect((await pageLanguage(await get("/listen", { "Accept-Language": "en", Cookie: "lang=xx" }))).lang).toBe("en");
    expect((await pageLanguage(await get("/listen?lang=xx", { Cookie: "lang=en" }))).lang).toBe("en");
  });

  it("links each page's versions for search engines (hreflang)", async () => {
    const html = await (await get("/events?lang=en")).text();
    const alternates = [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"/g)].map(([, lang, href]) => [lang, new URL(href).search]);
    expect(alternates).toEqual([
      ["id", "?lang=id"],
      ["en", "?lang=en"],
      ["x-default", ""],
    ]);
  });

  it("switches with the language form, and only to a language we have", async () => {
    const visitor = new Visitor(server.url);
    const switched = await visitor.post("/language", { language: "en", returnTo: "/events?lang=id&x=1" });
    expect(switched.status).toBe(302);
    // Back to the page, without the ?lang= that would override the new choice.
    expect(switched.headers.get("Location")).toBe("/events?x=1");
    expect(visitor.cookies.get("lang")).toBe("en");
    expect((await pageLanguage(await visitor.request("/listen"))).lang).toBe("en");

    for (const language of ["fr", "", "en-US", "../id"]) {
      const refused = await visitor.post("/language", { language, returnTo: "/events" });
      expect(refused.status).toBe(400);
      expect(refused.headers.getSetCookie()).toEqual([]);
    }
    expect(visitor.cookies.get("lang")).toBe("en");
    // Never sent to another site.
    for (const returnTo of ["//evil.example", "https://evil.example/", "/\\evil.example", "/.//evil.example"]) {
      const response = await visitor.post("/language", { language: "id", returnTo });
      expect(response.status).toBe(302);
      expect(new URL(response.headers.get("Location")!, server.url).origin).toBe(new URL(server.url).origin);
    }
  });

  it("keeps a signed-in listener's choice on the account, for their other devices", async () => {
    const email = "bahasa@example.com";
    const phone = new Visitor(server.url);
    expect((await phone.post("/register", { name: "Dewi", email, password: PASSWORD, conPassword: PASSWORD })).status).toBe(302);
    expect((await phone.post("/login", { email, password: PASSWORD })).status).toBe(302);
    expect((await phone.post("/language", { language: "en", returnTo: "/listen" })).status).toBe(302);
    expect((await db().user.findUniqueOrThrow({ where: { email } })).language).toBe("en");

    // A new device whose browser asks for Indonesian and whose cookie says Indonesian still gets the account's choice.
    const laptop = new Visitor(server.url);
    laptop.cookies.set("lang", "id");
    expect((await laptop.post("/login", { email, password: PASSWORD })).status).toBe(302);
    expect((await pageLanguage(await laptop.request("/events", { headers: { "Accept-Language": "id" } }))).lang).toBe("en");
  });

  it("serves each language's messages as data the browser keeps until the text changes", async () => {
    const { version, json } = catalogJson("id");
    const current = await get(`/locales/id.json?v=${version}`);
    expect(current.status).toBe(200);
    expect(current.headers.get("Cache-Control")).toContain("immutable");
    expect(await current.text()).toBe(json);
    const stale = await get("/locales/id.json?v=old");
    expect(stale.headers.get("Cache-Control")).toBe("no-cache");
    for (const path of ["/locales/fr.json", "/locales/..%2Fid.json", "/locales/.json"]) expect((await get(path)).status).toBe(404);
    // The page names the catalog of its own language.
    const html = await (await get("/events", { "Accept-Language": "en" })).text();
    expect(html).toContain(`href="/locales/en.json?v=${catalogJson("en").version}" data-catalog=""`);
  });
});
