import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Express, Request, Response } from "express";
import { serverI18n } from "~/i18n/catalogs.server";
import { translator } from "~/i18n/translate";
import { getNowPlaying, onNowPlayingChanged } from "~/models/now-playing.server";
import { oembedFor } from "~/models/oembed.server";
import { siteOrigin } from "~/models/site-origin.server";
import { getStationIdentity } from "~/models/station.server";
import { widgetEpisode, widgetHistory, widgetNowPlaying, widgetSchedule } from "~/models/widgets.server";
import { getConfig } from "~/services/config.server";
import { logger } from "~/services/log.server";
import { onContentChanged } from "~/services/realtime.server";
import { optionPairs, readWidgetOptions, type OptionName, type WidgetKind } from "~/widgets/options";
import { embeddablePage } from "./security";

// Built by scripts/remix-build.mjs from app/widgets/widgets.ts.
const SCRIPT_PATH = path.resolve("build/widgets.js");
// A station's widgets may sit on many sites: one visitor's browser holds at most this many live streams.
const MAX_STREAMS_PER_ADDRESS = 20;
// Proxies close a connection that says nothing for a minute or so.
const HEARTBEAT_MS = 25_000;

/**
 * Headers of everything a widget on another site reads: any origin may read it, no credentials
 * (`*` forbids them: a browser never sends the station's cookies along in a way a script could use),
 * and the response may be loaded across origins by hosts that isolate themselves (COEP).
 */
function forAnySite(res: Response, cacheSeconds: number) {
  res.set({
    "Access-Control-Allow-Origin": "*",
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Cache-Control": cacheSeconds > 0 ? `public, max-age=${cacheSeconds}` : "no-store",
  });
}

const requestOrigin = (req: Request) => siteOrigin(`${req.protocol}://${req.get("host")}${req.originalUrl}`);

/** A query value by name; a name given twice reads as a value no check accepts. */
function queryReader(req: Request): (name: string) => string | null {
  const query = new URL(req.originalUrl, "http://x").searchParams;
  return (name) => {
    const values = query.getAll(name);
    return values.length > 1 ? values.join(",") : (values[0] ?? null);
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

export interface WidgetRoutes {
  /** Ends the live streams (a server shutting down does not wait for them). */
  close(): void;
}

/**
 * The station on other sites: /widgets.js, the public data it reads (/widgets/*.json), live
 * changes as server-sent events (/widgets/live), the iframe versions (/embed/...) and oEmbed
 * (/oembed). Read-only, public data, the same for every visitor.
 */
export function mountWidgetRoutes(app: Express): WidgetRoutes {
  let script: Promise<{ body: Buffer; etag: string }> | null = null;
  const loadScript = () => {
    script ??= fs.readFile(SCRIPT_PATH).then((body) => ({ body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"` }));
    script.catch(() => (script = null));
    return script;
  };

  app.get("/widgets.js", async (req, res) => {
    try {
      const { body, etag } = await loadScript();
      forAnySite(res, 300);
      res.set({ "Content-Type": "text/javascript; charset=utf-8", ETag: etag });
      if (req.get("If-None-Match") === etag) res.status(304).end();
      else res.send(body);
    } catch {
      res.status(503).type("text/plain").send("The widget script is not built: run `npm run build`");
    }
  });

  const json = (cacheSeconds: number, read: (req: Request, origin: string) => Promise<unknown>) => async (req: Request, res: Response) => {
    try {
      const body = await read(req, await requestOrigin(req));
      forAnySite(res, body === null ? 0 : cacheSeconds);
      if (body === null) res.status(404).json({ error: "Not found" });
      else res.json(body);
    } catch (error) {
      logger.warn(`Widget data ${req.path}: ${(error as Error).message}`);
      forAnySite(res, 0);
      res.status(503).json({ error: "Unavailable" });
    }
  };
  app.get(
    "/widgets/now-playing.json",
    json(0, (_req, origin) => widgetNowPlaying(origin)),
  );
  app.get(
    "/widgets/schedule.json",
    json(60, (_req, origin) => widgetSchedule(origin)),
  );
  app.get(
    "/widgets/history.json",
    json(5, (req, origin) => widgetHistory(origin, readWidgetOptions("history", queryReader(req)).options.limit)),
  );
  app.get(
    "/widgets/episodes/:id.json",
    json(60, (req, origin) => {
      const { options, invalid } = readWidgetOptions("episode", (name) => (name === "episode" ? req.params.id : null));
      return invalid.length || options.episode === null ? Promise.resolve(null) : widgetEpisode(origin, options.episode);
    }),
  );

  // ---------------------------------------------------------------- live changes (server-sent events)

  const streams = new Set<Response>();
  const streamsPerAddress = new Map<string, number>();
  const send = (event: string, data: unknown) => {
    const message = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of streams) res.write(message);
  };
  // Followed from the first stream on: by then the server's realtime (and its link to the other instances) is attached.
  let unfollow: (() => void) | null = null;
  const followChanges = () => {
    if (unfollow) return;
    const stopNowPlaying = onNowPlayingChanged((state) => send("nowplaying", state));
    const stopContent = onContentChanged(() => send("changed", {}));
    const heartbeat = setInterval(() => {
      for (const res of streams) res.write(": \n\n");
    }, HEARTBEAT_MS);
    unfollow = () => {
      stopNowPlaying();
      stopContent();
      clearInterval(heartbeat);
    };
  };

  app.get("/widgets/live", (req, res) => {
    const address = req.ip ?? "unknown";
    const open = streamsPerAddress.get(address) ?? 0;
    if (open >= MAX_STREAMS_PER_ADDRESS) {
      forAnySite(res, 0);
      res.status(429).set("Retry-After", "60").type("text/plain").send("Too many live connections from this address");
      return;
    }
    streamsPerAddress.set(address, open + 1);
    forAnySite(res, 0);
    // no-transform: the compression middleware would hold events back to fill its blocks.
    res.status(200).set({ "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no" });
    res.flushHeaders();
    res.write(`retry: 5000\nevent: nowplaying\ndata: ${JSON.stringify(getNowPlaying())}\n\n`);
    streams.add(res);
    followChanges();
    req.on("close", () => {
      streams.delete(res);
      const left = (streamsPerAddress.get(address) ?? 1) - 1;
      if (left > 0) streamsPerAddress.set(address, left);
      else streamsPerAddress.delete(address);
    });
  });

  // ---------------------------------------------------------------- iframe versions

  const makeEmbeddable = embeddablePage();
  const embed = (kind: WidgetKind) => async (req: Request, res: Response) => {
    const read = queryReader(req);
    const { options, invalid } = readWidgetOptions(kind, (name: OptionName) =>
      kind === "episode" && name === "episode" ? (req.params.id ?? null) : read(name),
    );
    const language = options.lang ?? getConfig().stationLanguage;
    const { t } = translator(serverI18n(language));
    res.set("Cache-Control", "no-store");
    if (invalid.length > 0) {
      res
        .status(400)
        .type("text/plain")
        .send(t("widgets.badOption", { names: invalid.join(", ") }));
      return;
    }
    try {
      const origin = await requestOrigin(req);
      const station = getStationIdentity(language);
      let title: string;
      let fallback: string;
      const stationLink = (path: string, text: string) => `<a href="${escapeHtml(origin + path)}" target="_blank" rel="noopener">${escapeHtml(text)}</a>`;
      if (options.episode !== null) {
        const found = await widgetEpisode(origin, options.episode);
        if (!found) {
          res.status(404).type("text/plain").send(t("widgets.episodeMissing"));
          return;
        }
        const { episode } = found;
        title = t("widgets.episodeTitle", { title: episode.title, station: station.name });
        const start = options.start ? `#t=${options.start}` : "";
        fallback = `<p>${stationLink(`/play/${episode.id}`, episode.title)}</p><audio controls preload="none" src="${escapeHtml(episode.audio + start)}"></audio>`;
      } else {
        const titles: Record<WidgetKind, Parameters<typeof t>[0]> = {
          player: "widgets.playerTitle",
          "now-playing": "widgets.nowPlayingTitle",
          schedule: "widgets.scheduleTitle",
          history: "widgets.historyTitle",
          episode: "widgets.episodeTitle",
        };
        title = t(titles[kind], { station: station.name });
        const nowPlaying = getNowPlaying();
        const live = nowPlaying.onAir ? (nowPlaying.title ?? station.name) : t("widgets.offAir");
        fallback =
          kind === "schedule"
            ? `<p>${stationLink("/schedule", title)}</p>`
            : kind === "history"
              ? `<p>${stationLink("/history", title)}</p>`
              : `<p>${stationLink("/listen", station.name)}: ${escapeHtml(live)}</p>${kind === "player" ? `<audio controls preload="none" src="/stream/live"></audio>` : ""}`;
      }
      // The element takes exactly the checked options (the episode widget's id comes from the path).
      const attributes = [...optionPairs(kind, options), ...(kind === "episode" ? [["episode", String(options.episode)] as const] : [])]
        .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
        .join("");
      makeEmbeddable(res);
      res
        .status(200)
        .type("html")
        .send(
          `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
            `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>` +
            `<style>html,body{margin:0;background:transparent;font-family:system-ui,sans-serif}</style>` +
            `<script src="/widgets.js" defer></script></head>` +
            `<body><spin-${kind}${attributes}>${fallback}</spin-${kind}></body></html>`,
        );
    } catch (error) {
      logger.warn(`Widget embed ${req.path}: ${(error as Error).message}`);
      res
        .status(503)
        .type("text/plain")
        .send(t("widgets.unreachable", { station: getStationIdentity(language).name }));
    }
  };
  app.get("/embed/player", embed("player"));
  app.get("/embed/now-playing", embed("now-playing"));
  app.get("/embed/schedule", embed("schedule"));
  app.get("/embed/history", embed("history"));
  app.get("/embed/episode/:id", embed("episode"));

  // ---------------------------------------------------------------- oEmbed

  app.get("/oembed", async (req, res) => {
    const read = queryReader(req);
    forAnySite(res, 0);
    try {
      const answer = await oembedFor(await requestOrigin(req), {
        url: read("url"),
        format: read("format"),
        maxwidth: read("maxwidth"),
        maxheight: read("maxheight"),
      });
      if (answer.status === 200) res.set("Cache-Control", "public, max-age=300").json(answer.body);
      else res.status(answer.status).type("text/plain").send(answer.message);
    } catch (error) {
      logger.warn(`oEmbed: ${(error as Error).message}`);
      res.status(503).type("text/plain").send("Unavailable");
    }
  });

  return {
    close() {
      unfollow?.();
      for (const res of streams) res.end();
      streams.clear();
    },
  };
}
