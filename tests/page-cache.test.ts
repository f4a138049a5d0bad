import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { createEvent } from "~/models/events.server";
import { captureLog } from "./helpers/log";
import { startTestServer, type TestServer } from "./helpers/server";

const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];

/** The raw status, bytes and headers of a GET (fetch would decompress them), or of a HEAD. */
function rawGet(
  url: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers, method }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

describe("the public page cache", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  // Every song recorded in the history empties the cache (pages list the recent songs), and the demo
  // stream's follower records its first title just after start: wait until a copy is kept.
  async function untilKept(path: string) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await fetch(`${server.url}${path}`);
      await response.text();
      if (response.headers.get("etag")) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it("replays /listen with a fresh nonce and an ETag, and answers repeat visits with 304", async () => {
    await untilKept("/listen");
    const first = await fetch(`${server.url}/listen`);
    const firstHtml = await first.text();
    const second = await fetch(`${server.url}/listen`);
    const secondHtml = await second.text();
    const etag = second.headers.get("etag");
    expect(etag).toMatch(/^W\/".+"$/);
    expect(second.headers.get("cache-control")).toBe("no-cache");
    expect(nonceOf(second)).not.toBe(nonceOf(first));
    expect(secondHtml).toContain(`nonce="${nonceOf(second)}"`);
    expect(secondHtml).not.toContain(`nonce="${nonceOf(first)}"`);
    expect(secondHtml.replaceAll(nonceOf(second)!, "N")).toBe(firstHtml.replaceAll(nonceOf(first)!, "N"));

    const repeat = await fetch(`${server.url}/listen`, { headers: { "If-None-Match": etag! } });
    expect(repeat.status).toBe(304);
    expect(repeat.headers.get("content-security-policy")).toBeNull();
    expect(await repeat.text()).toBe("");
  });

  it("sends a replay gzipped with its own nonce, which Node's zlib and GNU gzip both read whole", async () => {
    await untilKept("/listen");
    const plain = await rawGet(`${server.url}/listen`, { "Accept-Encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.etag).toBeDefined();
    const plainNonce = /'nonce-([^']+)'/.exec(String(plain.headers["content-security-policy"]))![1];
    for (const acceptEncoding of ["gzip", "gzip, deflate, br, zstd"]) {
      const zipped = await rawGet(`${server.url}/listen`, { "Accept-Encoding": acceptEncoding });
      expect(zipped.headers["content-encoding"]).toBe("gzip");
      expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
      expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
      const nonce = /'nonce-([^']+)'/.exec(String(zipped.headers["content-security-policy"]))![1];
      expect(nonce).not.toBe(plainNonce);
      const html = gunzipSync(zipped.body).toString();
      expect(html).toContain(`nonce="${nonce}"`);
      expect(html.replaceAll(nonce, "N")).toBe(plain.body.toString().replaceAll(plainNonce, "N"));
      // An outside reader: GNU gzip checks the CRC and length of the whole body too.
      expect(execFileSync("gzip", ["-dc"], { input: zipped.body }).toString()).toBe(html);
      expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    }
  });

  it("answers HEAD with a replay's headers and no body, and sends identity to a client that refuses gzip", async () => {
    await untilKept("/listen");
    const plain = await rawGet(`${server.url}/listen`, { "Accept-Encoding": "identity" });
    for (const encoding of ["gzip", "identity"]) {
      const head = await rawGet(`${server.url}/listen`, { "Accept-Encoding": encoding }, "HEAD");
      expect(head.status).toBe(200);
      expect(head.body).toHaveLength(0);
      expect(head.headers.etag).toBe(plain.headers.etag);
      expect(head.headers["content-type"]).toBe(plain.headers["content-type"]);
      expect(head.headers["content-security-policy"]).toMatch(/'nonce-/);
    }
    for (const refusing of ["gzip;q=0", "gzip;q=0, identity", "br"]) {
      const response = await rawGet(`${server.url}/listen`, { "Accept-Encoding": refusing });
      expect(response.status).toBe(200);
      expect(response.headers["content-encoding"]).toBeUndefined();
      expect(Number(response.headers["content-length"])).toBe(response.body.length);
      expect(response.body.length).toBe(plain.body.length);
      expect(response.body.toString()).toContain("streamController.close()");
    }
  });

  it("answers a replay with the same security headers, log line and metrics as any other answer", async () => {
    await untilKept("/events");
    const rendered = await fetch(`${server.url}/events?fresh=1`); // never kept: rendered through Express
    await rendered.text();
    const log = captureLog("info");
    let replayed: Response;
    try {
      replayed = await fetch(`${server.url}/events`);
      await replayed.text();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      log.restore();
    }
    expect(replayed.headers.get("etag")).not.toBeNull();
    for (const header of ["x-content-type-options", "referrer-policy", "x-frame-options", "cross-origin-opener-policy", "permissions-policy"]) {
      expect(replayed.headers.get(header), header).toBe(rendered.headers.get(header));
    }
    expect(replayed.headers.get("content-security-policy")!.replace(/'nonce-[^']+'/, "N")).toBe(
      rendered.headers.get("content-security-policy")!.replace(/'nonce-[^']+'/, "N"),
    );
    expect(log.entries().filter((entry) => entry.msg === "request")).toEqual([
      expect.objectContaining({ method: "GET", path: "/events", status: 200, reqId: expect.any(Number), durationMs: expect.any(Number) }),
    ]);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^http_requests_total\{method="GET",status="200"\} [1-9]\d*$/m);
  });

  it("shows a change on the next request after a write", async () => {
    await (await fetch(`${server.url}/events`)).text();
    const cached = await fetch(`${server.url}/events`);
    expect(cached.headers.get("etag")).not.toBeNull();
    expect(await cached.text()).not.toContain("Cache Buster Night");

    await createEvent({
      name: "Cache Buster Night",
      date: "2026-12-24",
      time: "21:00",
      poster: await fs.readFile("prisma/seed-assets/covers/cover-03.jpg"),
    });
    const fresh = await fetch(`${server.url}/events`);
    expect(fresh.headers.get("etag")).toBeNull();
    expect(await fresh.text()).toContain("Cache Buster Night");
  });

  it("never serves cached pages to signed-in listeners or admins", async () => {
    await (await fetch(`${server.url}/cardlistmore`)).text();
    expect((await fetch(`${server.url}/cardlistmore`)).headers.get("etag")).not.toBeNull();
    for (const cookie of ["__session=abc", "__admin=xyz"]) {
      const personal = await fetch(`${server.url}/cardlistmore`, { headers: { Cookie: cookie } });
      expect(personal.headers.get("etag")).toBeNull();
    }
  });
});
