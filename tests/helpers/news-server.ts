import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { BrowserContext } from "playwright-core";

// A local stand-in for api-berita-indonesia, serving the real API's shapes
// (see shared/spec/reference-app.md) and each way it can fail. Tests never
// reach the internet.

export type NewsScenario =
  | "ok"
  /** HTTP 404 { success: false, message: "Not found", data: null }, as for unknown paths. */
  | "not-found"
  /** HTTP 200 { success: false, ... }: the API's upstream RSS failed. */
  | "unsuccessful"
  /** HTTP 500 with an HTML error page. */
  | "server-error"
  /** Answers correctly, but only after `slowMs`. */
  | "slow"
  /** HTTP 200 with a body cut off mid-JSON. */
  | "broken-json"
  /** HTTP 200, success: true, but no data.posts / no endpoints. */
  | "missing-fields";

export interface StandInPost {
  link?: unknown;
  title?: unknown;
  pubDate?: unknown;
  description?: unknown;
  thumbnail?: unknown;
}

export interface NewsStandIn {
  url: string;
  /** Paths requested so far (e.g. "/", "/cnn/terbaru/"). */
  requests: string[];
  /** How every API path answers from now on. */
  scenario: NewsScenario;
  slowMs: number;
  /** Replaces a category's posts (defaults: 10 generated posts per category). */
  setPosts(category: string, posts: StandInPost[]): void;
  countRequests(path: string): number;
  close(): Promise<void>;
}

export const SOURCES = ["antara", "cnbc", "cnn", "jpnn", "kumparan", "merdeka", "okezone", "republika", "sindonews", "suara", "tempo", "tribun"];
export const CNN_CATEGORIES = ["terbaru", "nasional", "internasional", "ekonomi", "olahraga", "teknologi", "hiburan", "gayaHidup"];

const TOPICS: Record<string, string[]> = {
  terbaru: [
    "Festival musik kampus kembali digelar akhir pekan ini",
    "Hujan deras diprediksi guyur Jakarta sore nanti",
    "Mahasiswa rancang aplikasi radio komunitas",
    "Harga tiket konser turun jelang libur semester",
    "Stasiun radio lokal rayakan ulang tahun ke-20",
    "Penyiar muda raih penghargaan nasional",
    "Podcast kuliner jadi tren baru anak muda",
    "Jalur sepeda baru dibuka di pusat kota",
    "Pameran seni digital hadir di museum kota",
    "Tim paduan suara kampus tampil di Eropa",
  ],
};

function thumbnailSvg(n: number): string {
  const hue = (n * 47) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 45%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360} 70% 22%)"/></linearGradient></defs><rect width="640" height="360" fill="url(#g)"/><circle cx="${160 + ((n * 90) % 320)}" cy="180" r="110" fill="rgb(255 255 255 / 0.12)"/></svg>`;
}

/** Where generated posts' thumbnails live: https, as on the real news sites; browser tests serve it with `serveStandInThumbnails`. */
export const THUMBNAIL_ORIGIN = "https://images.news-stand-in.test";

/** Answers the stand-in's thumbnail URLs inside the browser, so no request leaves the machine. */
export async function serveStandInThumbnails(context: BrowserContext): Promise<void> {
  await context.route(`${THUMBNAIL_ORIGIN}/**`, (route) => {
    const n = Number(/-(\d+)\.svg$/.exec(route.request().url())?.[1] ?? 1);
    return route.fulfill({ status: 200, contentType: "image/svg+xml", body: thumbnailSvg(n) });
  });
}

export function generatedPosts(category: string, count = 10): StandInPost[] {
  const titles = TOPICS[category];
  return Array.from({ length: count }, (_, i) => ({
    link: `https://www.cnnindonesia.com/${category}/2025050${i}-berita-${i + 1}`,
    title: titles?.[i] ?? `Berita ${category} nomor ${i + 1}`,
    pubDate: new Date(Date.UTC(2025, 4, 5, 7, 30) - i * 3_600_000).toISOString(),
    description: `Ringkasan berita ${category} nomor ${i + 1}: apa yang terjadi, siapa yang terlibat, dan kenapa itu penting bagi pendengar.`,
    thumbnail: `${THUMBNAIL_ORIGIN}/${category}-${i + 1}.svg`,
  }));
}

export async function startNewsStandIn(): Promise<NewsStandIn> {
  const custom = new Map<string, StandInPost[]>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://stand-in").pathname;
    standIn.requests.push(path);
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));

    const answer = (scenario: NewsScenario) => {
      switch (scenario) {
        case "not-found":
          return json(404, { success: false, message: "Not found", data: null });
        case "unsuccessful":
          return json(200, { success: false, message: "Error: Status code 503", data: null });
        case "server-error":
          return res.writeHead(500, { "content-type": "text/html" }).end("<h1>Internal Server Error</h1>");
        case "broken-json":
          return res.writeHead(200, { "content-type": "application/json" }).end('{"success":true,"data":{"posts":[{"title":"Hal');
        case "missing-fields":
          return json(200, path === "/" ? { maintainer: "x" } : { success: true, message: null, data: { title: "CNN" } });
      }
      if (path === "/") {
        return json(200, {
          maintainer: "Stand-in",
          github: "https://github.com/renomureza/api-berita-indonesia",
          endpoints: SOURCES.map((source) => ({
            name: source,
            paths: (source === "cnn" ? CNN_CATEGORIES : ["terbaru"]).map((name) => ({ name, path: `${standIn.url}/${source}/${name}/` })),
          })),
        });
      }
      const category = /^\/cnn\/([\w-]+)\/$/.exec(path)?.[1];
      if (!category || !CNN_CATEGORIES.includes(category)) return json(404, { success: false, message: "Not found", data: null });
      return json(200, {
        success: true,
        message: null,
        data: {
          link: `https://www.cnnindonesia.com/${category}`,
          image: "https://www.cnnindonesia.com/logo.png",
          description: `Berita ${category}`,
          title: `CNN ${category}`,
          posts: custom.get(category) ?? generatedPosts(category),
        },
      });
    };

    if (standIn.scenario === "slow") {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) answer("ok");
      }, standIn.slowMs);
      timers.add(timer);
    } else {
      answer(standIn.scenario);
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  const standIn: NewsStandIn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    scenario: "ok",
    slowMs: 1500,
    setPosts: (category, posts) => custom.set(category, posts),
    countRequests: (path) => standIn.requests.filter((p) => p === path).length,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standIn;
}
