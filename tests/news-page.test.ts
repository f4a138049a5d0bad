import { clearNewsCache, newsClient } from "~/services/news.server";
import { THUMBNAIL_ORIGIN, generatedPosts, startNewsStandIn, type NewsScenario, type NewsStandIn } from "./helpers/news-server";
import { startTestServer, type TestServer } from "./helpers/server";

const UNAVAILABLE = "News is unavailable right now.";

/** The hrefs of the news cards' title links, in order. */
function articleLinks(html: string): string[] {
  return [...html.matchAll(/<a href="([^"]*)" target="_blank" rel="noopener noreferrer" class="news-card__link"/g)].map((m) => m[1]);
}

describe("/news and /watch against the news API", () => {
  let api: NewsStandIn;
  let server: TestServer;
  beforeAll(async () => {
    api = await startNewsStandIn();
    server = await startTestServer({ NEWS_API_URL: api.url });
  });
  afterAll(async () => {
    await server?.stop();
    await api?.close();
  });
  beforeEach(() => {
    clearNewsCache();
    api.scenario = "ok";
    api.requests.length = 0;
    for (const category of ["terbaru", "nasional"]) api.setPosts(category, generatedPosts(category));
  });

  async function get(path: string) {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, html: await response.text() };
  }

  it("shows the first 6 posts of /cnn/terbaru/ with thumbnail, link, description and an Indonesian date", async () => {
    const { status, html } = await get("/news?lang=id");
    expect(status).toBe(200);
    const posts = generatedPosts("terbaru");
    expect(articleLinks(html)).toEqual(posts.slice(0, 6).map((p) => p.link));
    expect(html).toContain("Festival musik kampus kembali digelar akhir pekan ini");
    expect(html).not.toContain(String(posts[6].title));
    expect(html).toContain(`src="${THUMBNAIL_ORIGIN}/terbaru-1.svg"`);
    expect(html).toContain("Ringkasan berita terbaru nomor 1");
    // 2025-05-05T07:30Z is 14.30 in Jakarta.
    expect(html).toContain('dateTime="2025-05-05T07:30:00.000Z"');
    expect(html).toContain("Senin, 5 Mei 2025 pukul 14.30 WIB");
    expect(html).toContain('<h1 id="news-title" class="section-title">NEWS</h1>');
    expect(api.requests).toEqual(expect.arrayContaining(["/", "/cnn/terbaru/"]));
  });

  it("lists the categories from the API root and switches to a chosen one", async () => {
    const { html } = await get("/news");
    for (const label of ["Terbaru", "Nasional", "Internasional", "Ekonomi", "Olahraga", "Teknologi", "Hiburan", "Gaya Hidup"]) {
      expect(html).toContain(`>${label}</a>`);
    }
    expect(html).toContain('href="/news?category=gayaHidup"');

    const nasional = await get("/news?category=nasional");
    expect(nasional.status).toBe(200);
    expect(articleLinks(nasional.html)).toEqual(
      generatedPosts("nasional")
        .slice(0, 6)
        .map((p) => p.link),
    );
    expect(nasional.html).toMatch(
      /<a[^>]*aria-current="page"[^>]*href="\/news\?category=nasional"|<a[^>]*href="\/news\?category=nasional"[^>]*aria-current="page"/,
    );
    expect(api.countRequests("/cnn/nasional/")).toBe(1);
    expect(api.countRequests("/cnn/terbaru/")).toBe(1);
  });

  it("answers an unknown category with a clear message and a 404, without asking the API for it", async () => {
    const { status, html } = await get("/news?category=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    expect(status).toBe(404);
    expect(html).toContain("There is no news category called “alert(1)”.");
    expect(html).not.toContain("<script>alert(1)");
    expect(api.requests.filter((p) => p !== "/" && p !== "/cnn/terbaru/")).toEqual([]);
  });

  it("serves repeated visits from the cache", async () => {
    await get("/news");
    await get("/news");
    await get("/watch");
    expect(api.countRequests("/cnn/terbaru/")).toBe(1);
    expect(api.countRequests("/")).toBe(1);
  });

  it.each<NewsScenario>(["not-found", "unsuccessful", "server-error", "broken-json", "missing-fields"])(
    "still renders /news and /watch when the API answers %s and nothing is cached",
    async (scenario) => {
      api.scenario = scenario;
      const news = await get("/news");
      expect(news.status).toBe(200);
      expect(news.html).toContain(UNAVAILABLE);
      expect(news.html).toContain("PODCAST");
      expect(news.html).toContain("<footer");
      const watch = await get("/watch");
      expect(watch.status).toBe(200);
      expect(watch.html).toContain("News categories are unavailable right now.");
      expect(watch.html).toContain("TRENDING");
    },
  );

  it("still renders /news when the API does not answer in time", async () => {
    api.scenario = "slow";
    api.slowMs = 10_000;
    const started = Date.now();
    const { status, html } = await get("/news");
    expect(status).toBe(200);
    expect(html).toContain(UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it("shows the last good posts when the API fails after they were cached", async () => {
    await get("/news");
    api.scenario = "unsuccessful";
    newsClient().expire();
    // The first visit after expiry is answered from the cache while the refresh fails in the background.
    await get("/news");
    await newsClient().settled();
    const { status, html } = await get("/news");
    expect(status).toBe(200);
    expect(html).not.toContain(UNAVAILABLE);
    expect(articleLinks(html)).toHaveLength(6);
    expect(html).toContain("The news service is not answering right now, so these are the headlines from");
  });

  it("shows posts without a thumbnail with a placeholder, and drops posts it cannot link to", async () => {
    api.setPosts("terbaru", [
      { title: "Tanpa gambar", link: "https://example.com/tanpa-gambar", description: "Tidak ada thumbnail.", pubDate: "2025-05-05T01:00:00Z" },
      { title: "Tanpa tautan", description: "Tidak bisa dibuka." },
      { title: "Tanggal kosong", link: "https://example.com/tanggal", thumbnail: "" },
    ]);
    const { html } = await get("/news");
    expect(articleLinks(html)).toEqual(["https://example.com/tanpa-gambar", "https://example.com/tanggal"]);
    const list = html.slice(html.indexOf('<ul class="news-grid"'), html.indexOf("</ul>", html.indexOf('<ul class="news-grid"')));
    expect(list.match(/news-card__placeholder/g)).toHaveLength(2);
    expect(list).not.toContain("<img");
    expect(html).not.toContain("Tanpa tautan");
  });

  it("renders hostile titles, descriptions, links and thumbnails as harmless text", async () => {
    api.setPosts("terbaru", [
      {
        title: '<img src=x onerror="alert(1)">Judul<script>alert(2)</script>',
        link: "https://example.com/ok",
        description: '"><svg onload=alert(3)> &lt;iframe src=javascript:alert(4)&gt;',
        thumbnail: 'https://example.com/t.jpg" onerror="alert(5)',
      },
      { title: "Tautan javascript", link: "javascript:alert(6)", thumbnail: "javascript:alert(7)" },
      { title: "Gambar data", link: "https://example.com/data", thumbnail: "data:image/svg+xml,<svg onload=alert(8)>" },
      { title: "Tautan relatif", link: "/admin" },
    ]);
    const { status, html } = await get("/news");
    expect(status).toBe(200);
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(main).not.toMatch(/<(script|iframe)/i);
    // No event-handler attribute anywhere (the quote in the thumbnail URL was percent-encoded).
    expect(main).not.toMatch(/\son\w+=/i);
    expect(main).not.toContain("javascript:");
    expect(main).not.toContain("data:image");
    expect(main).toContain("Judul alert(2)");
    expect(main).toContain('src="https://example.com/t.jpg%22%20onerror=%22alert(5)"');
    expect(articleLinks(html)).toEqual(["https://example.com/ok", "https://example.com/data"]);
  });
});
