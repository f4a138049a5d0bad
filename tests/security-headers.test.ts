import http from "node:http";
import { db } from "~/services/db.server";
import { startTestServer, type TestServer } from "./helpers/server";

describe("security headers and request guards", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true", TRUST_PROXY: "1" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(["/listen", "/healthz", "/no-such-page", "/favicon.svg"])("sends the security headers on %s", async (path) => {
    const response = await fetch(`${server.url}${path}`);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toMatch(/frame-src https:\/\/open\.spotify\.com/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("sends the headers on media too", async () => {
    const file = await db().storedFile.findFirstOrThrow({ where: { contentType: "image/webp" } });
    const response = await fetch(`${server.url}/media/${file.key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("gives every page a fresh nonce that every script carries", async () => {
    const [a, b] = await Promise.all([fetch(`${server.url}/listen`), fetch(`${server.url}/listen`)]);
    const nonceOf = (r: Response) => /'nonce-([^']+)'/.exec(r.headers.get("content-security-policy") ?? "")![1];
    expect(nonceOf(a)).not.toBe(nonceOf(b));
    const html = await a.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonceOf(a)}"`);
  });

  it("never hands out a nonce twice, across refills of the random pool", async () => {
    // More responses than one fill of the pool holds (256 nonces), some of them concurrent.
    const nonces: string[] = [];
    for (let batch = 0; batch < 30; batch++) {
      const responses = await Promise.all(Array.from({ length: 20 }, () => fetch(`${server.url}/healthz`)));
      for (const response of responses) {
        nonces.push(/'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")![1]);
        await response.arrayBuffer();
      }
    }
    expect(nonces).toHaveLength(600);
    expect(new Set(nonces).size).toBe(600);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });

  it("adds HSTS only when served over https", async () => {
    const response = await fetch(`${server.url}/listen`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });

  it("refuses a cross-site POST and changes nothing", async () => {
    const before = await db().adminSession.count();
    const crossSite: Record<string, string>[] = [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }];
    for (const headers of crossSite) {
      const response = await fetch(`${server.url}/pin`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: "kind=admin&pin=123456",
        redirect: "manual",
      });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("another site");
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    expect(await db().adminSession.count()).toBe(before);
    expect(await db().rateLimit.count()).toBe(0);
  });

  it("accepts a same-origin POST", async () => {
    const response = await fetch(`${server.url}/pin`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, "Sec-Fetch-Site": "same-origin" },
      body: "kind=admin&pin=123456",
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard-admin");
  });

  it("refuses bodies over the limit before reading them", async () => {
    // A raw request: the server must answer from the declared length alone.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${server.url}/pin`,
        { method: "POST", headers: { "Content-Length": String(50 * 1024 * 1024), "Content-Type": "application/x-www-form-urlencoded" } },
        (res) => resolve(res.statusCode!),
      );
      req.on("error", reject);
      req.write("kind=admin&pin=1");
    });
    expect(status).toBe(413);
  });
});
