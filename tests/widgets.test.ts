import { extract, setProviderList } from "@extractus/oembed-extractor";
import * as cheerio from "cheerio";
import { db } from "~/services/db.server";
import { startTestServer, type TestServer } from "./helpers/server";

/**
 * Sharing that unfurls and the widgets' public endpoints: the oEmbed answer read by a consumer
 * library (found through the page's discovery link, and through a provider list), the link-preview
 * tags and JSON-LD read by an HTML parser, and the headers and checks of the widget routes.
 */
describe("oEmbed, link previews and the widget endpoints", () => {
  let server: TestServer;
  let episode: { id: number; title: string; description: string };
  let show: { slug: string; name: string };
  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true" });
    episode = await db().podcastEpisode.findFirstOrThrow({
      where: { listeningReady: true },
      orderBy: { id: "asc" },
      select: { id: true, title: true, description: true },
    });
    show = await db().show.findFirstOrThrow({ orderBy: { name: "asc" }, select: { slug: true, name: true } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const page = async (path: string) => cheerio.load(await (await fetch(`${server.url}${path}`)).text());
  const jsonLd = ($: cheerio.CheerioAPI) =>
    $('script[type="application/ld+json"]')
      .map((_, element) => JSON.parse($(element).text()) as Record<string, unknown>)
      .get() as Record<string, unknown>[];

  it("answers oEmbed with the iframe player, found by a consumer library through the page's discovery link", async () => {
    const pageUrl = `${server.url}/play/${episode.id}?t=90`;
    // Not on any provider list: the library reads the page's <link rel="alternate" type="application/json+oembed">.
    const data = (await extract(pageUrl)) as Record<string, unknown>;
    expect(data).toMatchObject({ version: "1.0", type: "rich", title: episode.title, provider_name: "SPIN RADIO", provider_url: `${server.url}/` });
    expect(data.width).toBe(480);
    expect(typeof data.height).toBe("number");
    const $ = cheerio.load(String(data.html));
    const iframe = $("iframe");
    expect(iframe).toHaveLength(1);
    // The discovery link names the page without ?t; asked for the shared address itself, it starts there.
    expect(iframe.attr("src")).toBe(`${server.url}/embed/episode/${episode.id}`);
    expect(iframe.attr("title")).toBe(episode.title);
    expect(String(data.thumbnail_url)).toMatch(new RegExp(`^${server.url}/media/`));

    const direct = await (
      await fetch(`${server.url}/oembed?${new URLSearchParams({ url: pageUrl, format: "json", maxwidth: "320", maxheight: "150" })}`)
    ).json();
    expect(cheerio.load(direct.html)("iframe").attr("src")).toBe(`${server.url}/embed/episode/${episode.id}?t=90`);
    expect(direct.width).toBe(320);
    expect(direct.height).toBe(150);

    // A consumer that knows the station as a provider asks /oembed straight away; a show and /listen embed the live player.
    setProviderList([{ provider_name: "SPIN RADIO", provider_url: server.url, endpoints: [{ schemes: [`${server.url}/*`], url: `${server.url}/oembed` }] }]);
    // The library asks listed providers over https only; the test server speaks http, so its fetcher stands in for TLS.
    const overHttp = (url: string) => fetch(url.replace(/^https:/, "http:"));
    const live = (await extract(`${server.url}/shows/${show.slug}`, {}, overHttp)) as Record<string, unknown>;
    expect(live).toMatchObject({ type: "rich", title: `${show.name} · SPIN RADIO` });
    expect(cheerio.load(String(live.html))("iframe").attr("src")).toBe(`${server.url}/embed/player`);
    const listen = (await extract(`${server.url}/listen`, {}, overHttp)) as Record<string, unknown>;
    expect(cheerio.load(String(listen.html))("iframe").attr("src")).toBe(`${server.url}/embed/player`);
  });

  it("refuses what it cannot answer, with a clear status", async () => {
    const ask = (query: Record<string, string>) => fetch(`${server.url}/oembed?${new URLSearchParams(query)}`);
    const cases: [Record<string, string>, number][] = [
      [{ url: `${server.url}/play/${episode.id}`, format: "xml" }, 501],
      [{ url: "https://evil.example/play/1" }, 404],
      [{ url: `${server.url}/play/999999` }, 404],
      [{ url: `${server.url}/dashboard-admin` }, 404],
      [{ url: "not a url" }, 400],
      [{ url: `${server.url}/listen`, maxwidth: "-1" }, 400],
      [{ url: `${server.url}/listen`, maxheight: "1e9" }, 400],
      [{ url: `${server.url}/shows/%E0%A4%A` }, 404],
    ];
    for (const [query, status] of cases) expect((await ask(query)).status, JSON.stringify(query)).toBe(status);
  });

  it("puts og:audio, a Twitter player card, the discovery link and JSON-LD on episode, show and listen pages", async () => {
    const $episode = await page(`/play/${episode.id}`);
    const meta = (name: string) => $episode(`meta[property="${name}"], meta[name="${name}"]`).attr("content");
    expect(meta("og:audio")).toMatch(new RegExp(`^${server.url}/media/`));
    expect(meta("og:audio:type")).toMatch(/^audio\//);
    expect(meta("twitter:card")).toBe("player");
    expect(meta("twitter:player")).toBe(`${server.url}/embed/episode/${episode.id}`);
    expect(Number(meta("twitter:player:height"))).toBeGreaterThan(0);
    expect($episode('link[rel="alternate"][type="application/json+oembed"]').attr("href")).toBe(
      `${server.url}/oembed?${new URLSearchParams({ url: `${server.url}/play/${episode.id}`, format: "json" })}`,
    );
    const [podcastEpisode] = jsonLd($episode);
    expect(podcastEpisode).toMatchObject({
      "@context": "https://schema.org",
      "@type": "PodcastEpisode",
      name: episode.title,
      url: `${server.url}/play/${episode.id}`,
    });
    expect(podcastEpisode.associatedMedia).toMatchObject({ "@type": "AudioObject", contentUrl: meta("og:audio") });
    expect(String(podcastEpisode.datePublished)).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(podcastEpisode.timeRequired).toMatch(/^PT\d+S$/);

    const $show = await page(`/shows/${show.slug}`);
    expect($show('meta[name="twitter:player"]').attr("content")).toBe(`${server.url}/embed/player`);
    expect($show('meta[property="og:audio"]').attr("content")).toBe(`${server.url}/stream/live`);
    expect($show('link[type="application/json+oembed"]').attr("href")).toContain(encodeURIComponent(`${server.url}/shows/${show.slug}`));
    const [graph] = jsonLd($show);
    const nodes = graph["@graph"] as Record<string, unknown>[];
    expect(nodes.map((node) => node["@type"])).toEqual(expect.arrayContaining(["RadioStation", "RadioSeries", "BroadcastEvent"]));
    const broadcast = nodes.find((node) => node["@type"] === "BroadcastEvent")!;
    expect(broadcast).toMatchObject({ name: show.name, isLiveBroadcast: true });
    expect(Date.parse(String(broadcast.endDate))).toBeGreaterThan(Date.parse(String(broadcast.startDate)));

    const $listen = await page("/listen");
    expect(jsonLd($listen)[0]).toMatchObject({ "@type": "RadioStation", name: "SPIN RADIO", url: `${server.url}/listen` });
    expect($listen('link[type="application/json+oembed"]')).toHaveLength(1);
    expect($listen('meta[name="twitter:card"]').attr("content")).toBe("player");
  });

  it("serves the widget data to any site without credentials, and the iframe pages to any frame", async () => {
    for (const path of [
      "/widgets.js",
      "/widgets/now-playing.json",
      "/widgets/schedule.json",
      "/widgets/history.json",
      `/widgets/episodes/${episode.id}.json`,
    ]) {
      const response = await fetch(`${server.url}${path}`, { headers: { Origin: "https://campus.example" } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(response.headers.get("access-control-allow-credentials"), path).toBeNull();
      expect(response.headers.get("set-cookie"), path).toBeNull();
      await response.arrayBuffer();
    }
    const data = await (await fetch(`${server.url}/widgets/episodes/${episode.id}.json`)).json();
    expect(data.episode).toMatchObject({ id: episode.id, title: episode.title, url: `${server.url}/play/${episode.id}` });
    expect((await fetch(`${server.url}/widgets/episodes/999999.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/widgets/episodes/abc.json`)).status).toBe(404);
    expect((await (await fetch(`${server.url}/widgets/history.json?limit=2`)).json()).songs.length).toBeLessThanOrEqual(2);

    const embed = await fetch(`${server.url}/embed/episode/${episode.id}?theme=light&t=90`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(embed.headers.get("x-frame-options")).toBeNull();
    const $ = cheerio.load(await embed.text());
    expect($("spin-episode").attr()).toEqual({ theme: "light", t: "90", episode: String(episode.id) });
    expect($("script").attr("src")).toBe("/widgets.js");
    // Without JavaScript the frame still plays: the browser's own player, from the shared time.
    expect($("spin-episode audio").attr("src")).toMatch(/\/media\/.+#t=90$/);
  });

  it("refuses hostile query values on the embed pages and writes nothing of them", async () => {
    const hostile = [
      "/embed/player?theme=%22%3E%3Cscript%3Ealert(1)%3C/script%3E",
      "/embed/now-playing?accent=red;background:url(x)",
      "/embed/schedule?view=month",
      "/embed/history?limit=21",
      "/embed/history?limit=1&limit=2",
      "/embed/player?episode=1e3",
      "/embed/episode/0",
      "/embed/episode/abc?lang=en",
      "/embed/player?lang=fr",
      "/embed/player?size=" + "l".repeat(5000),
    ];
    for (const path of hostile) {
      const response = await fetch(`${server.url}${path}`);
      const body = await response.text();
      expect(response.status, path).toBe(400);
      expect(body, path).not.toContain("<");
      expect(response.headers.get("content-type"), path).toMatch(/^text\/plain/);
    }
    const named = await (await fetch(`${server.url}/embed/history?limit=500&view=x&lang=en`)).text();
    expect(named).toBe("This widget cannot show that: limit must be one of the allowed values.");
    expect((await fetch(`${server.url}/embed/episode/999999`)).status).toBe(404);
  });
});
