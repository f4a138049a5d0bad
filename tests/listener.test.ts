import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { extractFrames, icyMetadataBlock, readFrameHeader } from "../server/demo-stream";
import { nextStart, previousStart } from "~/components/ImageSlider";
import { reconnectDelay } from "~/utils/player";
import { readIcyTitle } from "~/services/stream-metadata.server";
import { startTestServer, type TestServer } from "./helpers/server";

const SEED = path.resolve("prisma/seed-assets");

/** Reads a stream for `ms`, then hangs up; resolves with the headers and bytes received. */
function readStream(url: string, ms: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      setTimeout(() => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      }, ms);
    });
    request.on("error", (error) => (error.message.includes("socket hang up") ? undefined : reject(error)));
  });
}

describe("crew slider paging (reference: 3 per page, wrap both ways)", () => {
  it("next past the end wraps to the start", () => {
    expect(nextStart(0, 38, 3)).toBe(3);
    expect(nextStart(33, 38, 3)).toBe(36);
    expect(nextStart(36, 38, 3)).toBe(0);
  });
  it("previous below the first page jumps to max(0, length - 3)", () => {
    expect(previousStart(0, 38, 3)).toBe(35);
    expect(previousStart(3, 38, 3)).toBe(0);
    expect(previousStart(0, 2, 3)).toBe(0);
  });
  it("the one-image slider wraps around", () => {
    expect(nextStart(37, 38, 1)).toBe(0);
    expect(previousStart(0, 38, 1)).toBe(37);
  });
});

describe("live player reconnect backoff", () => {
  it("tries twice after about a second, then doubles, and stays under 30 s plus jitter", () => {
    expect(reconnectDelay(0)).toBeGreaterThanOrEqual(800);
    expect(reconnectDelay(0)).toBeLessThanOrEqual(1200);
    expect(reconnectDelay(1)).toBeLessThanOrEqual(1200);
    expect(reconnectDelay(4)).toBeGreaterThanOrEqual(6400);
    expect(reconnectDelay(20)).toBeLessThanOrEqual(36_000);
  });
});

describe("demo stream building blocks", () => {
  it("splits the bundled MP3 into frames without ID3 tags or the encoder's info frame", async () => {
    const file = await fs.readFile(path.join(SEED, "audio/episode-1.mp3"));
    const { frames, frameStarts, bitrateKbps } = extractFrames(file);
    expect(file.subarray(0, 3).toString()).toBe("ID3");
    expect(bitrateKbps).toBe(64);
    expect(readFrameHeader(frames, 0)).not.toBeNull();
    expect(frames.toString("latin1")).not.toMatch(/Xing|Info/);
    for (const start of frameStarts.slice(0, 50)) expect(readFrameHeader(frames, start)).not.toBeNull();
  });

  it("writes ICY metadata blocks in 16-byte units, and a zero byte when nothing changed", () => {
    const block = icyMetadataBlock("Ngopi Pagi");
    expect(block[0]).toBe(Math.ceil("StreamTitle='Ngopi Pagi';".length / 16));
    expect(block.length).toBe(1 + block[0] * 16);
    expect(block.subarray(1).toString().replace(/\0+$/, "")).toBe("StreamTitle='Ngopi Pagi';");
    expect([...icyMetadataBlock(null)]).toEqual([0]);
  });
});

describe("listener server side", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true", STATION_NAME: "KAMPUS FM", STATION_ACCENT_COLOR: "#22aa88" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("serves an endless MP3 demo stream paced at its bitrate, without ICY metadata unless asked", async () => {
    const { status, headers, body } = await readStream(`${server.url}/stream/live`, 2000);
    expect(status).toBe(200);
    expect(headers["content-type"]).toBe("audio/mpeg");
    expect(headers["icy-name"]).toBe("KAMPUS FM");
    expect(headers["icy-br"]).toBe("64");
    expect(headers["icy-metaint"]).toBeUndefined();
    expect(readFrameHeader(body, 0)).not.toBeNull();
    // 2 s of burst plus about 2 s paced at 8000 bytes/s: nowhere near the whole playlist at once.
    expect(body.length).toBeGreaterThan(16_000 + 8000);
    expect(body.length).toBeLessThan(16_000 + 8000 * 4);
    expect(body.toString("latin1")).not.toContain("StreamTitle=");
  });

  it("interleaves ICY metadata every icy-metaint bytes when the client sends Icy-MetaData: 1", async () => {
    const { headers, body } = await readStream(`${server.url}/stream/live`, 1000, { "Icy-MetaData": "1" });
    const metaInterval = Number(headers["icy-metaint"]);
    expect(metaInterval).toBe(16000);
    expect(body.length).toBeGreaterThan(metaInterval + 1);
    const length = body[metaInterval] * 16;
    const text = body
      .subarray(metaInterval + 1, metaInterval + 1 + length)
      .toString("utf8")
      .replace(/\0+$/, "");
    // The demo programme's tracks, each announced as "Artist - Title".
    const programme = JSON.parse(await fs.readFile(path.join(SEED, "programme/programme.json"), "utf8")) as { tracks: { artist: string; title: string }[] };
    const titles = programme.tracks.map((track) => `StreamTitle='${track.artist} - ${track.title}';`);
    expect(titles).toContain(text);
    expect(await readIcyTitle(`${server.url}/stream/live`)).toBe(text.slice("StreamTitle='".length, -2));
  });

  it("tells the player what is on air", async () => {
    const response = await fetch(`${server.url}/now-playing`);
    const body = (await response.json()) as { title: string };
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(body.title.length).toBeGreaterThan(3);
  });

  it("builds the web app manifest and the page title from the station's configuration", async () => {
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: "KAMPUS FM", theme_color: "#22aa88", start_url: "/listen", display: "standalone" });
    const icon = await fetch(`${server.url}/station-icon.svg`);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toContain(">KF<");
    const html = await (await fetch(`${server.url}/listen`)).text();
    expect(html).toContain("<title>LISTEN · KAMPUS FM</title>");
    expect(html).toContain('rel="manifest"');
    expect(html).toContain('aria-label="KAMPUS FM home"');
    expect(html).toContain("KAMPUS FM CREWS");
    expect(html).toContain('aria-label="KAMPUS FM live stream"');
  });

  it("renders /play/{id} from the server and answers 404 for unknown or malformed ids", async () => {
    const ok = await fetch(`${server.url}/play/1`);
    expect(ok.status).toBe(200);
    const html = await ok.text();
    expect(html).toMatch(/<audio[^>]+src="\/media\/audio\//);
    for (const id of ["999999", "abc", "1.5", "-1"]) {
      const missing = await fetch(`${server.url}/play/${id}`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain("Page not found");
    }
  });

  it("shows five episodes on /listen and ten on /cardlistmore, with the crew slider's first page", async () => {
    const count = (html: string) => (html.match(/class="podcast-card"/g) ?? []).length;
    const listen = await (await fetch(`${server.url}/listen`)).text();
    const more = await (await fetch(`${server.url}/cardlistmore`)).text();
    expect(count(listen)).toBe(5);
    expect(count(more)).toBe(10);
    expect(listen).toContain("1–3 / 38");
    // Without JavaScript the slider's controls are links that render the next page.
    const paged = await (await fetch(`${server.url}/listen?crew=36`)).text();
    expect(paged).toContain("37–38 / 38");
    expect(paged).toContain('href="?crew=0"');
    expect(paged).toContain('href="?crew=33"');
  });

  it("ships only the crew slider's visible page with the page; the rest comes from /crew-images", async () => {
    const all = (await (await fetch(`${server.url}/crew-images`)).json()) as { images: { key: string; image: { key: string } }[] };
    expect(all.images).toHaveLength(38);
    const listen = await (await fetch(`${server.url}/listen`)).text();
    const shipped = all.images.filter((slide) => listen.includes(slide.image.key)).map((slide) => slide.key);
    expect(shipped).toEqual(["Crew1", "Crew2", "Crew3"]);
    const paged = await (await fetch(`${server.url}/cardlistmore?crew=36`)).text();
    expect(all.images.filter((slide) => paged.includes(slide.image.key)).map((slide) => slide.key)).toEqual(["Crew37", "Crew38"]);
  });

  it("server-renders the PIN dialog open for ?pin=admin, carrying redirectTo", async () => {
    const html = await (await fetch(`${server.url}/listen?pin=admin&redirectTo=%2FCrewAdmin`)).text();
    expect(html).toMatch(/<dialog[^>]*class="pin-dialog"[^>]*open/);
    expect(html).toContain('name="redirectTo" value="/CrewAdmin"');
  });
});
