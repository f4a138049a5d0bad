import { db } from "~/services/db.server";
import { startTestServer, type TestServer } from "./helpers/server";

describe("the server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("reports a healthy database on /healthz", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.ok).toBe(true);
    expect(body.database).toEqual({ ok: true });
  });

  it("redirects / to /listen", async () => {
    const response = await fetch(`${server.url}/`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/listen");
  });

  it("renders /listen from the database through the root layout", async () => {
    const cover = await db().storedFile.create({
      data: { key: "images/test-cover.webp", contentType: "image/webp", size: 10, checksum: "c".repeat(64), width: 400, height: 400 },
    });
    const audio = await db().storedFile.create({
      data: { key: "audio/test.mp3", contentType: "audio/mpeg", size: 10, checksum: "a".repeat(64) },
    });
    const episode = await db().podcastEpisode.create({
      data: {
        title: "Ngobrol Pagi: Test Episode",
        description: "A test.",
        coverId: cover.id,
        audioId: audio.id,
        durationSeconds: 75,
        publishedAt: new Date(Date.now() - 60_000),
      },
    });
    const unpublished = await db().podcastEpisode.create({
      data: {
        title: "Scheduled Episode",
        description: "Not yet.",
        coverId: cover.id,
        audioId: audio.id,
        durationSeconds: 10,
        publishedAt: new Date(Date.now() + 86_400_000),
      },
    });

    const response = await fetch(`${server.url}/listen`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<header class="site-header"');
    expect(html).toContain("<footer");
    expect(html).toContain("LATEST PODCAST");
    expect(html).toContain("Ngobrol Pagi: Test Episode");
    expect(html).toContain(`href="/play/${episode.id}"`);
    expect(html).toContain("/media/images/test-cover.webp");
    expect(html).toContain("1:15");
    expect(html).not.toContain(`/play/${unpublished.id}"`);
  });

  it("answers unknown pages with a 404 page in the site's design", async () => {
    const response = await fetch(`${server.url}/no-such-page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found");
    expect(html).toContain('<header class="site-header"');
  });
});
