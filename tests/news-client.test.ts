import { createNewsClient, parsePostsResponse, plainText, safeHttpUrl } from "~/services/news.server";
import { CNN_CATEGORIES, startNewsStandIn, type NewsStandIn } from "./helpers/news-server";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the news client", () => {
  let api: NewsStandIn;
  beforeAll(async () => {
    api = await startNewsStandIn();
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(() => {
    api.scenario = "ok";
    api.requests.length = 0;
  });

  it("reads the categories of endpoints[2] (cnn) from the API root", async () => {
    const client = createNewsClient({ baseUrl: api.url });
    const result = await client.categories();
    expect(result.ok && result.value.map((c) => c.name)).toEqual(CNN_CATEGORIES);
    expect(result.ok && result.value.find((c) => c.name === "gayaHidup")?.label).toBe("Gaya Hidup");
  });

  it("answers from its cache while the answer is fresh", async () => {
    const client = createNewsClient({ baseUrl: api.url, freshForMs: 60_000 });
    const first = await client.posts("terbaru");
    const second = await client.posts("terbaru");
    expect(first.ok && second.ok).toBe(true);
    expect(second.ok && second.value).toEqual(first.ok && first.value);
    expect(api.countRequests("/cnn/terbaru/")).toBe(1);
  });

  it("serves a stale answer at once and refreshes it in the background", async () => {
    const client = createNewsClient({ baseUrl: api.url, freshForMs: 50 });
    await client.posts("terbaru");
    api.setPosts("terbaru", [{ title: "Berita baru", link: "https://example.com/baru", pubDate: "2025-05-05T07:00:00Z" }]);
    await wait(80);

    api.scenario = "slow";
    api.slowMs = 300;
    const started = Date.now();
    const stale = await client.posts("terbaru");
    expect(Date.now() - started).toBeLessThan(150);
    expect(stale.ok && stale.stale).toBe(true);
    expect(stale.ok && stale.value[0].title).not.toBe("Berita baru");
    // A second listener during the refresh does not start another request.
    await client.posts("terbaru");
    await client.settled();
    expect(api.countRequests("/cnn/terbaru/")).toBe(2);
    const refreshed = await client.posts("terbaru");
    expect(refreshed.ok && refreshed.value.map((p) => p.title)).toEqual(["Berita baru"]);
    expect(refreshed.ok && refreshed.stale).toBe(false);
    api.setPosts("terbaru", []);
  });

  it("gives up on a slow API after its timeout", async () => {
    api.scenario = "slow";
    api.slowMs = 2000;
    const client = createNewsClient({ baseUrl: api.url, timeoutMs: 200 });
    const started = Date.now();
    const result = await client.posts("nasional");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result).toEqual({ ok: false, reason: "no answer within 200 ms" });
  });

  it("keeps the last good answer through a failed refresh, and waits before retrying", async () => {
    const client = createNewsClient({ baseUrl: api.url, freshForMs: 20, retryAfterMs: 200 });
    const good = await client.posts("ekonomi");
    await wait(40);
    api.scenario = "server-error";
    await client.posts("ekonomi");
    await client.settled();
    const afterFailure = await client.posts("ekonomi");
    expect(afterFailure.ok && afterFailure.value).toEqual(good.ok && good.value);
    expect(afterFailure.ok && afterFailure.upstreamFailing).toBe(true);
    // Within retryAfterMs nobody asks the failing API again.
    expect(api.countRequests("/cnn/ekonomi/")).toBe(2);
  });

  it.each([
    ["not-found", "HTTP 404"],
    ["unsuccessful", "the API reported a failure: Error: Status code 503"],
    ["server-error", "HTTP 500 with a body that is not JSON"],
    ["broken-json", "HTTP 200 with a body that is not JSON"],
    ["missing-fields", "the response has no data.posts"],
  ] as const)("reports %s as unavailable when nothing is cached", async (scenario, reason) => {
    api.scenario = scenario;
    const client = createNewsClient({ baseUrl: api.url });
    expect(await client.posts("terbaru")).toEqual({ ok: false, reason });
  });

  it("reports an API root without endpoints as unavailable", async () => {
    api.scenario = "missing-fields";
    const client = createNewsClient({ baseUrl: api.url });
    expect(await client.categories()).toEqual({ ok: false, reason: "the index has no endpoints" });
  });

  it("reports an unreachable API as unavailable", async () => {
    const client = createNewsClient({ baseUrl: "http://127.0.0.1:9", timeoutMs: 500 });
    const result = await client.posts("terbaru");
    expect(result.ok).toBe(false);
  });

  it("refuses category names that are not plain words", () => {
    const client = createNewsClient({ baseUrl: api.url });
    expect(() => client.posts("../../admin")).toThrow();
  });
});

describe("parsing untrusted news data", () => {
  const response = (posts: unknown[]) => ({ success: true, message: null, data: { posts } });

  it("keeps only http(s) links and thumbnails", () => {
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("data:image/svg+xml,<svg onload=alert(1)>")).toBeNull();
    expect(safeHttpUrl("//evil.example/x")).toBeNull();
    expect(safeHttpUrl("/relative")).toBeNull();
    expect(safeHttpUrl("https://user:pass@example.com/")).toBeNull();
    expect(safeHttpUrl('https://example.com/a"><script>')).toBe("https://example.com/a%22%3E%3Cscript%3E");
    expect(safeHttpUrl(" https://example.com/ok ")).toBe("https://example.com/ok");
    expect(safeHttpUrl(42)).toBeNull();
  });

  it("turns titles and descriptions into plain text", () => {
    expect(plainText('<img src=x onerror="alert(1)">Judul <b>tebal</b>', 100)).toBe("Judul tebal");
    expect(plainText("&lt;script&gt;alert(1)&lt;/script&gt;Aman &amp; damai", 100)).toBe("alert(1) Aman & damai");
    expect(plainText("Kutipan &#8220;baik&#8221; &#x41;", 100)).toBe("Kutipan “baik” A");
    expect(plainText("a".repeat(50), 10)).toBe("aaaaaaaaa…");
    expect(plainText(null, 10)).toBe("");
  });

  it("drops posts without a usable link or title and keeps posts without a thumbnail", () => {
    const posts = parsePostsResponse(
      response([
        { title: "Tanpa gambar", link: "https://example.com/1", pubDate: "2025-05-05T07:30:00.000Z", description: "Isi" },
        { title: "Tautan jahat", link: "javascript:alert(1)" },
        { title: "", link: "https://example.com/3" },
        { link: "https://example.com/4" },
        "not a post",
        null,
        { title: "Tanggal rusak", link: "https://example.com/5", pubDate: "kemarin", thumbnail: "ftp://example.com/x.jpg" },
      ]),
    );
    expect(posts).toEqual([
      { title: "Tanpa gambar", link: "https://example.com/1", description: "Isi", thumbnail: null, pubDate: "2025-05-05T07:30:00.000Z" },
      { title: "Tanggal rusak", link: "https://example.com/5", description: "", thumbnail: null, pubDate: null },
    ]);
  });

  it.each([
    ["not an object", "[]"],
    ["success: false", { success: false, message: "Not found", data: null }],
    ["no data", { success: true, message: null }],
    ["posts not a list", { success: true, data: { posts: "none" } }],
  ])("rejects a response that is %s", (_name, body) => {
    expect(() => parsePostsResponse(body)).toThrow();
  });
});
