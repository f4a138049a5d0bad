import http from "node:http";
import type { AddressInfo } from "node:net";
import { db } from "~/services/db.server";
import { adminCookie, postAdminForm } from "./helpers/admin";
import { startStationInstances, type ChildServer } from "./helpers/child-server";
import { createTestDatabase, type TestDatabase } from "./helpers/database";
import { icyStream, startFakeIcecast, type FakeIcecast } from "./helpers/fake-icecast";
import { startTestServer, type TestServer } from "./helpers/server";

// Station settings (issue 28, item 2): saved on /settings-admin, stored in the database, in force
// at once on every page and every instance; an environment variable still wins.

const valid = {
  formId: "settings",
  intent: "save-settings",
  name: "Radio Kenari",
  tagline: "Suara dari Bandung",
  logoUrl: "",
  accentColor: "#22AA88",
  timeZone: "Europe/Lisbon",
  email: "studio@kenari.example",
  socialLabel0: "Instagram",
  socialUrl0: "https://instagram.com/kenari",
  socialLabel1: "",
  socialUrl1: "",
  streamUrl: "",
  historyDays: "30",
};

const text = async (url: string, cookie = "") => (await fetch(url, { headers: cookie ? { Cookie: cookie } : {} })).text();

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("station settings on one instance", () => {
  let server: TestServer;
  let cookie: string;
  let page: http.Server;
  let pageUrl: string;
  let icecast: FakeIcecast;

  beforeAll(async () => {
    [server, icecast] = await Promise.all([startTestServer(), startFakeIcecast()]);
    icecast.stream = icyStream({ title: () => "Nadin Amizah - Bertaut" });
    cookie = await adminCookie(server.url);
    page = http.createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<html>a web page</html>"));
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await server?.stop();
    await icecast?.close();
    await new Promise((resolve) => page?.close(resolve));
  });

  it("invites the admin to finish setting up the station until the settings are saved once", async () => {
    const dashboard = await text(`${server.url}/dashboard-admin`, cookie);
    expect(dashboard).toContain("Finish setting up your station");
    expect(dashboard).toContain('href="/settings-admin"');
    const settings = await text(`${server.url}/settings-admin`, cookie);
    // The test server's environment sets the language and the rewind window: read-only, named.
    expect(settings).toContain("Fixed by the environment (STATION_LANGUAGE)");
    expect(settings).toContain("Fixed by the environment (REWIND_HOURS)");
    // The PINs moved here from the dashboard, which keeps a link.
    expect(settings).toContain("Change admin PIN");
    expect(dashboard).not.toContain("Change admin PIN");
  });

  it("refuses bad input with a clear message per field and changes nothing", async () => {
    const refusals: [Record<string, string>, string][] = [
      [{ timeZone: "Mars/Olympus" }, "Use an IANA time zone such as Asia/Jakarta or Europe/London."],
      [{ socialUrl0: "http://instagram.com/kenari" }, "A social link must be an https:// address."],
      [{ socialUrl0: "javascript:alert(1)" }, "A social link must be an https:// address."],
      [{ name: "N".repeat(61) }, "Give the station a name of 1 to 60 characters."],
      [{ name: "" }, "Give the station a name of 1 to 60 characters."],
      [{ accentColor: "red" }, "The accent colour must be written like #ff3d6e."],
      [{ historyDays: "0" }, "History days are a whole number from 1 to 36500."],
      [{ email: "not an address" }, "Type an email address such as radio@example.org."],
    ];
    for (const [change, message] of refusals) {
      const response = await postAdminForm(server.url, "/settings-admin", cookie, { ...valid, ...change });
      expect(response.status, JSON.stringify(change)).toBe(400);
      const body = await response.text();
      expect(body, JSON.stringify(change)).toContain(message);
      expect(body).toContain("Nothing was saved.");
    }
    expect(await db().setting.findUnique({ where: { key: "station.settings" } })).toBeNull();
    expect(await text(`${server.url}/listen`)).toContain("SPIN RADIO");
  });

  it("checks a new stream address and says clearly why it cannot be used, unless saved anyway", async () => {
    const unreachable = await postAdminForm(server.url, "/settings-admin", cookie, { ...valid, streamUrl: `http://127.0.0.1:${await closedPort()}/live` });
    expect(unreachable.status).toBe(400);
    expect(await unreachable.text()).toMatch(/The stream could not be reached \([^)]*ECONNREFUSED[^)]*\)\. Nothing was saved/);

    const notAudio = await postAdminForm(server.url, "/settings-admin", cookie, { ...valid, streamUrl: pageUrl });
    expect(notAudio.status).toBe(400);
    expect(await notAudio.text()).toContain("The stream address answered with text/html, not audio. Nothing was saved");
    expect(await db().setting.findUnique({ where: { key: "station.settings" } })).toBeNull();

    const anyway = await postAdminForm(server.url, "/settings-admin", cookie, { ...valid, streamUrl: pageUrl, saveAnyway: "on" });
    expect(anyway.status).toBe(200);
    const redirect = await fetch(`${server.url}/stream/live`, { redirect: "manual" });
    expect(redirect.headers.get("location")).toBe(pageUrl);

    // A real (fake) Icecast answers with audio and its title: the station switches to it.
    const live = await postAdminForm(server.url, "/settings-admin", cookie, { ...valid, streamUrl: icecast.streamUrl });
    expect(live.status).toBe(200);
    expect(await live.text()).toContain("The stream answers and is playing “Nadin Amizah - Bertaut”");
    expect((await fetch(`${server.url}/stream/live`, { redirect: "manual" })).headers.get("location")).toBe(icecast.streamUrl);
    // The leader's follower moved to the new stream without a restart.
    await expect.poll(async () => (await (await fetch(`${server.url}/now-playing`)).json()).title, { timeout: 15_000 }).toContain("Bertaut");
  });

  it("shows saved settings at once on /listen, /schedule, the podcast feed and the manifest", async () => {
    const saved = await postAdminForm(server.url, "/settings-admin", cookie, { ...valid, streamUrl: "" });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Settings saved.");

    const listen = await text(`${server.url}/listen`);
    expect(listen).toContain("<title>LISTEN · Radio Kenari");
    expect(listen).toContain("--accent:#22aa88");
    expect(listen).toContain("https://instagram.com/kenari");
    expect(await text(`${server.url}/schedule`)).toContain("Europe/Lisbon");
    const feed = await text(`${server.url}/podcast.xml`);
    expect(feed).toContain("Radio Kenari</title>");
    expect(feed).toContain("studio@kenari.example");
    const manifest = await (await fetch(`${server.url}/manifest.webmanifest`)).json();
    expect(manifest).toMatchObject({ name: "Radio Kenari", description: "Suara dari Bandung", theme_color: "#22aa88" });
    // Back on the demo stream.
    expect((await fetch(`${server.url}/stream/live`, { method: "HEAD" })).headers.get("content-type")).toBe("audio/mpeg");

    const dashboard = await text(`${server.url}/dashboard-admin`, cookie);
    expect(dashboard).not.toContain("Finish setting up your station");
    // Once set up, the dashboard keeps a plain link to the settings.
    expect(dashboard).toContain("Station settings: name, logo, time zone, stream and PINs");
    const logged = await db().activityLog.findMany({ where: { action: "station.settings" } });
    expect(logged.length).toBeGreaterThan(0);

    // The settings survive a restart (read from the database before the server listens).
    server = await server.restart();
    expect(await text(`${server.url}/listen`)).toContain("<title>LISTEN · Radio Kenari");
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("station settings the environment fixes", () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.stop();
  });

  it("keeps the environment's value, shows it read-only and ignores a posted one", async () => {
    server = await startTestServer({ STATION_NAME: "Env Radio", STATION_TIMEZONE: "Asia/Makassar" });
    const cookie = await adminCookie(server.url);
    const settings = await text(`${server.url}/settings-admin`, cookie);
    expect(settings).toContain("Fixed by the environment (STATION_NAME)");
    expect(settings).toContain("Fixed by the environment (STATION_TIMEZONE)");
    expect(settings).toMatch(/value="Env Radio"[^>]*disabled|disabled[^>]*value="Env Radio"/);
    const response = await postAdminForm(server.url, "/settings-admin", cookie, { ...valid, name: "Posted Name", timeZone: "Europe/Lisbon" });
    expect(response.status).toBe(200);
    const listen = await text(`${server.url}/listen`);
    expect(listen).toContain("<title>LISTEN · Env Radio");
    expect(listen).not.toContain("Posted Name");
    expect(await text(`${server.url}/schedule`)).toContain("Asia/Makassar");
    // The free settings were saved all the same.
    expect(listen).toContain("--accent:#22aa88");
  });
});

// Two instances on one PostgreSQL: a change saved on A is on B's public pages without a restart.
describe.skipIf(!process.env.TEST_DATABASE_URL)("station settings on two instances", () => {
  let database: TestDatabase;
  let a: ChildServer;
  let b: ChildServer;
  let instances: Awaited<ReturnType<typeof startStationInstances>> | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    instances = await startStationInstances(2, { DATABASE_URL: database.url, NEWS_API_URL: "http://127.0.0.1:9/unused" });
    [a, b] = instances.instances;
  });
  afterAll(async () => {
    await instances?.stop();
    await database?.drop();
  });

  it("shows a name and time zone saved on A on B's public pages, without a restart", async () => {
    // B renders (and keeps) its pages with the old settings first.
    expect(await text(`${b.url}/listen`)).toContain("<title>LISTEN · SPIN RADIO");
    expect(await text(`${b.url}/schedule`)).toContain("Asia/Jakarta");
    const cookie = await adminCookie(a.url);
    const response = await postAdminForm(a.url, "/settings-admin", cookie, { ...valid, name: "Kenari Dua", timeZone: "America/Bogota" });
    expect(response.status, await response.clone().text()).toBe(200);
    await expect.poll(async () => await text(`${b.url}/listen`), { timeout: 10_000 }).toContain("<title>LISTEN · Kenari Dua");
    await expect.poll(async () => await text(`${b.url}/schedule`), { timeout: 10_000 }).toContain("America/Bogota");
    expect((await (await fetch(`${b.url}/manifest.webmanifest`)).json()).name).toBe("Kenari Dua");
    expect(await text(`${a.url}/listen`)).toContain("<title>LISTEN · Kenari Dua");
  });
});
