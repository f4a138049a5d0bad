import { adminCookie } from "./helpers/admin";
import { rawRequest } from "./helpers/raw-http";
import { startTestServer, type TestServer } from "./helpers/server";

/*
 * Finding 1 of the second security round: poisoning the anonymous page cache
 * through Host / X-Forwarded-Host and through cookie names the "anonymous"
 * test did not recognise, and absolute URLs built from a visitor's Host.
 */

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

// First in the file, before any site address is confirmed (the suite below confirms one). Several
// servers in one test process share one database client: this one stops before the next starts.
describe("absolute URLs behind a trusted proxy", () => {
  let proxied: TestServer;
  let playPath: string;
  beforeAll(async () => {
    proxied = await startTestServer({ SEED_CONTENT: "true", TRUST_PROXY: "1" });
    const list = await rawRequest(proxied.url, "/cardlistmore", { headers: { Host: `127.0.0.1:${proxied.port}` } });
    playPath = /href="(\/play\/\d+)"/.exec(list.body)![1];
  });
  afterAll(async () => {
    await proxied?.stop();
  });

  it("replays a kept page with HSTS only to requests that came over https, through the trusted proxy", async () => {
    const base = { Host: `127.0.0.1:${proxied.port}`, "X-Forwarded-Host": "radio.example" };
    for (const [headers, hsts] of [
      [{ ...base, "X-Forwarded-Proto": "https" }, true],
      [base, false],
    ] as const) {
      // The third is a replay of the page the first one rendered.
      for (let i = 0; i < 3; i++) {
        const page = await rawRequest(proxied.url, playPath, { headers });
        expect(page.status).toBe(200);
        expect(Boolean(page.headers["strict-transport-security"]), `${JSON.stringify(headers)} #${i}`).toBe(hsts);
        expect(page.body).toContain(`content="${hsts ? "https" : "http"}://radio.example${playPath}"`);
        const nonce = /'nonce-([^']+)'/.exec(String(page.headers["content-security-policy"]))![1];
        expect(page.body).toContain(`nonce="${nonce}"`);
        if (i > 0) expect(page.headers.etag).toBeDefined();
      }
    }
  });

  it("come from the first forwarded host alone, its port included or not", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ "X-Forwarded-Host": "radio.example" }, "http://radio.example"],
      [{ "X-Forwarded-Host": "radio.example", "X-Forwarded-Proto": "https" }, "https://radio.example"],
      [{ "X-Forwarded-Host": "radio.example:8443", "X-Forwarded-Proto": "https" }, "https://radio.example:8443"],
      [{ "X-Forwarded-Host": "radio.example, inner.example:99" }, "http://radio.example"],
      [{ "X-Forwarded-Host": "a.example:1,b.example" }, "http://a.example:1"],
    ];
    for (const [headers, origin] of cases) {
      const page = await rawRequest(proxied.url, playPath, { headers: { Host: `127.0.0.1:${proxied.port}`, ...headers } });
      expect(page.status, JSON.stringify(headers)).toBe(200);
      expect(page.body, JSON.stringify(headers)).toContain(`content="${origin}${playPath}"`);
    }
  });
});

describe("the page cache cannot be poisoned", () => {
  let server: TestServer;
  let host: string;
  let episodePath: string;
  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true" });
    host = `localhost:${server.port}`;
    const list = await rawRequest(server.url, "/cardlistmore", {
      headers: { Host: host },
    });
    episodePath = /href="(\/play\/\d+)"/.exec(list.body)![1];
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a Host or forwarded host a host name cannot hold, and /listen stays /listen", async () => {
    const hostile: Record<string, string>[] = [
      { Host: "localhost\\CrewSpin?" },
      { Host: `localhost:${server.port}\\Chart#` },
      { Host: "localhost/CrewSpin?" },
      { Host: "evil.example\\events?x=" },
      { Host: "local host" },
      { Host: "localhost@evil.example" },
      { Host: "localhost:12ab" },
      { Host: host, "X-Forwarded-Host": "localhost\\CrewSpin?" },
      { Host: host, "X-Forwarded-Host": "localhost:1\\Chart?" },
      { Host: host, "X-Forwarded-Host": "evil.example/x" },
    ];
    for (const headers of hostile) {
      for (const path of ["/listen", "/listen.data", "/play/1"]) {
        const response = await rawRequest(server.url, path, { headers });
        expect(response.status, `${JSON.stringify(headers)} ${path}`).toBe(400);
      }
    }
    const listen = await rawRequest(server.url, "/listen", {
      headers: { Host: host },
    });
    expect(listen.status).toBe(200);
    expect(titleOf(listen.body)).toMatch(/^LISTEN/);
  });

  it("keeps refusing bad Hosts and odd request targets while the honest page is kept (replays before Express)", async () => {
    // The honest page, kept and replayed: the second answer comes from the cache.
    for (let i = 0; i < 2; i++) expect((await rawRequest(server.url, "/listen", { headers: { Host: host } })).status).toBe(200);
    const kept = await rawRequest(server.url, "/listen", { headers: { Host: host } });
    expect(kept.headers.etag).toBeDefined();
    // Each differs from the kept request in one header or in the request target only.
    const hostile: [string, Record<string, string>][] = [
      ["/listen", { Host: `${host}\\Chart#` }],
      ["/listen", { Host: `${host}/CrewSpin?` }],
      ["/listen", { Host: `${host}@attacker.example` }],
      ["/listen", { Host: host, "X-Forwarded-Host": `${host}\\Chart?` }],
      ["/listen", { Host: host, "X-Forwarded-Proto": "gopher" }],
      ["/listen", { Host: host, "X-Forwarded-Proto": "https, javascript" }],
    ];
    for (const [path, headers] of hostile) {
      const response = await rawRequest(server.url, path, { headers });
      expect(response.status, JSON.stringify(headers)).toBe(400);
    }
    // Absolute-form and odd targets are Express's to judge, never the kept /listen.
    for (const target of [
      `http://attacker.example/listen`,
      "//attacker.example/listen",
      "/\\attacker.example/listen",
      "///attacker.example",
      "/listen/",
      "/LISTEN",
      "/listen%00",
      "/listen?",
    ]) {
      const response = await rawRequest(server.url, target, { headers: { Host: host } });
      expect(response.headers.etag, target).not.toBe(kept.headers.etag);
      // The target may show up as a path (a 404 names it), never as the host of a link: every
      // link, form and source on the page stays on this site.
      const leaving = [...response.body.matchAll(/\s(?:href|action|src|formaction)="([^"]*)"/g)]
        .map((match) => match[1]!.replaceAll("&amp;", "&"))
        .filter((value) => new URL(value, `http://${host}/`).host !== host);
      expect(leaving, target).toEqual([]);
    }
    // And the kept page is still the honest one.
    const after = await rawRequest(server.url, "/listen", { headers: { Host: host } });
    expect(after.headers.etag).toBe(kept.headers.etag);
    expect(titleOf(after.body)).toMatch(/^LISTEN/);
  });

  it("never serves one visitor's Host in another visitor's absolute URLs", async () => {
    const variants: Record<string, string>[] = [
      { Host: "attacker.example" },
      { Host: "attacker.example:8443" },
      { Host: "ATTACKER.example" },
      { Host: host, "X-Forwarded-Host": "attacker.example" },
      { Host: host, "X-Forwarded-Host": "localhost:8443" },
      { Host: host, "X-Forwarded-Proto": "https" },
    ];
    for (const headers of variants) {
      // Twice, so the second one would be a replay if it had been stored.
      for (let i = 0; i < 2; i++) await rawRequest(server.url, episodePath, { headers });
      const honest = await rawRequest(server.url, episodePath, {
        headers: { Host: host },
      });
      expect(honest.status).toBe(200);
      expect(honest.body, JSON.stringify(headers)).not.toMatch(/attacker\.example|:8443|https:\/\/localhost/i);
      expect(honest.body).toContain(`http://${host}${episodePath}`);
    }
  });

  it("keeps signed-in and admin renders out of the cache whatever the cookie name's spacing or case", async () => {
    const admin = await adminCookie(server.url);
    const [, value] = admin.split("=");
    const variants = [`__admin =${value}`, `__admin\t=${value}`, ` __admin=${value}`, `x=1;__admin  =${value}`, `__ADMIN=${value}`, `__Admin =${value}`];
    for (const cookie of variants) {
      const path = "/cardlistmore";
      for (let i = 0; i < 2; i++) {
        const personal = await rawRequest(server.url, path, {
          headers: { Host: host, Cookie: cookie },
        });
        expect(personal.headers.etag, cookie).toBeUndefined();
      }
      const anonymous = await rawRequest(server.url, path, {
        headers: { Host: host },
      });
      // The admin strip (the admin-only link to the dashboard) never reaches an anonymous visitor.
      expect(anonymous.body, cookie).not.toContain("/dashboard-admin");
    }
  });

  it("stores only exact requests: a query string or another method renders but is never replayed to the plain URL", async () => {
    await rawRequest(server.url, "/events?x=1", { headers: { Host: host } });
    const events = await rawRequest(server.url, "/events", {
      headers: { Host: host },
    });
    expect(events.status).toBe(200);
    expect(titleOf(events.body)).toMatch(/^EVENTS/i);
  });
  it("takes the origin the admin confirmed once as canonical, when PUBLIC_URL is unset", async () => {
    {
      const admin = await adminCookie(server.url);
      const dashboard = await rawRequest(server.url, "/dashboard-admin", {
        headers: { Host: host, Cookie: admin },
      });
      // Prefilled from the admin's own request.
      expect(dashboard.body).toContain(`value="http://${host}"`);
      const confirm = await rawRequest(server.url, "/dashboard-admin", {
        method: "POST",
        headers: {
          Host: host,
          Cookie: admin,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          intent: "site-origin",
          formId: "site-origin",
          origin: "https://radio.example.net",
        }).toString(),
      });
      expect(confirm.status).toBe(200);
      const list = await rawRequest(server.url, "/cardlistmore", {
        headers: { Host: host },
      });
      const path = /href="(\/play\/\d+)"/.exec(list.body)![1];
      for (const hostHeader of ["attacker.example", host]) {
        const page = await rawRequest(server.url, path, {
          headers: { Host: hostHeader },
        });
        expect(page.body).toContain(`https://radio.example.net${path}`);
        expect(page.body).not.toContain("attacker.example");
      }
      // Only an admin may confirm it.
      const anonymous = await rawRequest(server.url, "/dashboard-admin", {
        method: "POST",
        headers: {
          Host: host,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          intent: "site-origin",
          origin: "https://attacker.example",
        }).toString(),
      });
      expect(anonymous.status).toBe(403);
    }
  });
});

describe("the canonical origin", () => {
  it("comes from PUBLIC_URL for every visitor, whatever Host says", async () => {
    // Without seeded content: the feed carries absolute URLs, and the play pages take theirs from the same publicBaseUrl.
    const server = await startTestServer({ PUBLIC_URL: "https://radio.example.org" });
    try {
      const feed = await rawRequest(server.url, "/podcast.xml", {
        headers: { Host: "attacker.example" },
      });
      expect(feed.body).toContain("https://radio.example.org/podcast.xml");
      expect(feed.body).not.toContain("attacker.example");
    } finally {
      await server.stop();
    }
  });
});
