import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { Server as SocketServer } from "socket.io";
import { setConfig, type AppConfig } from "~/services/config.server";
import { waitForDatabase } from "~/services/database-check.server";
import { connectDb, disconnectDb } from "~/services/db.server";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "~/services/embedded-postgres.server";
import { checkHealth } from "~/services/health.server";
import { applyMigrations } from "~/services/migrations.server";
import { registerGauge } from "~/services/metrics.server";
import { attachRealtime, connectedListeners, onContentChanged } from "~/services/realtime.server";
import { resolveSessionSecret } from "~/services/session-secret.server";
import { createStorage, getStorage, setStorage } from "~/services/storage.server";
import { ensurePins } from "~/models/pins.server";
import { sweepOrphans } from "~/models/orphans.server";
import { SEED_DIR, seedStation } from "~/models/seed.server";
import { startListeningCopyQueue } from "~/models/listening-copies.server";
import { setSingleton } from "~/services/singleton.server";
import { withDatabaseOutagePages } from "./database-outage";
import { createDemoStream } from "./demo-stream";
import { createMediaHandler } from "./media";
import { observeRequests, serveMetrics } from "./observability";
import { createPageCache } from "./page-cache";
import { limitRequestBodies, refuseCrossSiteWrites, securityHeaders } from "./security";
import { shareRealtimeThroughPostgres } from "./realtime-adapter";

const BUILD_PATH = path.resolve("build/index.js");
// How long a shutdown waits for in-flight requests and uploads before cutting them.
const SHUTDOWN_GRACE_MS = 15_000;

export interface RunningServer {
  url: string;
  port: number;
  databaseUrl: string;
  io: SocketServer;
  close(): Promise<void>;
}

export interface StartOptions {
  log?: (line: string) => void;
  /** Development: re-import the Remix build whenever it is rebuilt. */
  watchBuild?: boolean;
}

async function importBuild(): Promise<ServerBuild> {
  try {
    await fs.access(BUILD_PATH);
  } catch {
    throw new Error("The app is not built yet: run `npm run build` first");
  }
  const { mtimeMs } = await fs.stat(BUILD_PATH);
  return withDatabaseOutagePages(await import(pathToFileURL(BUILD_PATH).href + "?t=" + mtimeMs));
}

/** Leftovers of a process killed mid-upload or mid-change; a failed sweep never stops the station. */
async function sweepOrphansAtStart(config: AppConfig, log: (line: string) => void): Promise<void> {
  try {
    const { unusedFiles, orphanedObjects } = await sweepOrphans({ graceMs: config.orphanGraceSeconds * 1000 });
    if (unusedFiles + orphanedObjects.length > 0) log(`Removed ${unusedFiles} unused files and ${orphanedObjects.length} orphaned objects from storage`);
  } catch (error) {
    log(`Could not sweep orphaned files: ${(error as Error).message}`);
  }
}

/**
 * Boots the whole station: database (embedded when DATABASE_URL is unset),
 * migrations, then one HTTP server carrying Express, Remix and socket.io.
 */
export async function startServer(config: AppConfig, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  await fs.mkdir(config.dataDir, { recursive: true });

  let embedded: EmbeddedPostgres | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(config.dataDir, "pgdata"));
    databaseUrl = embedded.url;
    log(`Embedded PostgreSQL (data in ${path.join(config.dataDir, "pgdata")})`);
  }

  try {
    await waitForDatabase(databaseUrl, { retries: config.databaseConnectRetries, log });
    await applyMigrations(databaseUrl, log);
    connectDb(databaseUrl);
    const sessionSecret = await resolveSessionSecret(config.sessionSecret, config.dataDir);
    setConfig({ ...config, sessionSecret });
    setStorage(await createStorage(config.s3 ? { s3: config.s3 } : { dataDir: config.dataDir }));
    await ensurePins(log);
    if (config.seedContent && (await seedStation())) log("Seeded the station with the bundled content");
    await sweepOrphansAtStart(config, log);
  } catch (error) {
    await disconnectDb();
    await embedded?.stop();
    throw error;
  }

  // WAV/FLAC/AIFF episodes are encoded by a PostgreSQL-backed job queue every instance works from.
  const stopListeningCopies = startListeningCopyQueue(databaseUrl, log);

  let build = await importBuild();
  const app = express();
  app.disable("x-powered-by");
  // Behind a proxy (docker-compose), the client's address comes from X-Forwarded-For.
  app.set("trust proxy", config.trustProxy);
  app.use(observeRequests(log));
  app.use(securityHeaders(config));
  // Media first: it is the hottest path and needs neither body checks nor compression.
  app.get("/media/*", createMediaHandler(getStorage, { fallbackImagePath: path.resolve("public/media-fallback.webp") }));
  app.use(refuseCrossSiteWrites(config));
  app.use(limitRequestBodies);
  app.use(compression());
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));

  app.get("/healthz", async (_req, res) => {
    const health = await checkHealth();
    res.status(health.ok ? 200 : 503).set("Cache-Control", "no-store").json(health);
  });
  app.get("/metrics", serveMetrics);

  let demo: Awaited<ReturnType<typeof createDemoStream>> | null = null;
  // The player always tunes in to /stream/live: the operator's stream when STREAM_URL is set
  // (a fresh redirect per connect keeps short-lived stream tokens working), else the demo stream.
  if (config.streamUrl) {
    const streamUrl = config.streamUrl;
    app.get("/stream/live", (_req, res) => res.set("Cache-Control", "no-store").redirect(302, streamUrl));
  } else {
    demo = await createDemoStream(SEED_DIR, { stationName: config.station.name, stationDescription: config.station.tagline });
    setSingleton("demoStream", demo);
    app.get("/stream/live", demo.handle);
  }

  const pageCache = createPageCache();
  app.use(pageCache.middleware);
  // After the page cache, so cached pages never pay for a file lookup.
  app.use(express.static("public", { maxAge: "1h" }));

  const mode = config.production ? "production" : "development";
  // What loaders and actions need from Express (see app/load-context.ts).
  const getLoadContext = (req: express.Request, res: express.Response) => ({
    clientIp: req.ip ?? "unknown",
    cspNonce: String(res.locals.cspNonce),
  });
  let handleRemixRequest = createRequestHandler({ build, mode, getLoadContext });
  app.all("*", (req, res, next) => handleRemixRequest(req, res, next));

  const httpServer = http.createServer(app);
  const io = new SocketServer(httpServer, { serveClient: false });
  // Several instances share one PostgreSQL; the embedded database serves a single instance.
  const stopRealtimeSharing = config.databaseUrl ? await shareRealtimeThroughPostgres(io, databaseUrl) : null;
  attachRealtime(io, stopRealtimeSharing !== null);
  const stopInvalidatingPages = onContentChanged(pageCache.invalidate);
  registerGauge("socketio_connected_listeners", "Browsers connected for live updates.", connectedListeners);

  let watcher: ReturnType<typeof import("node:fs").watch> | null = null;
  if (options.watchBuild) {
    const { watch } = await import("node:fs");
    watcher = watch(path.dirname(BUILD_PATH), async (_event, file) => {
      if (file !== path.basename(BUILD_PATH)) return;
      build = await importBuild();
      handleRemixRequest = createRequestHandler({ build, mode, getLoadContext });
      await broadcastDevReady(build);
    });
    await broadcastDevReady(build);
  }

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(config.port, config.host, resolve);
  });
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : config.port;

  return {
    url: `http://localhost:${port}`,
    port,
    databaseUrl,
    io,
    /** Graceful: stop accepting, let in-flight requests finish, then close sockets and the database. */
    async close() {
      watcher?.close();
      attachRealtime(undefined);
      setSingleton("demoStream", undefined);
      demo?.close();
      const stopped = new Promise<void>((resolve) => httpServer.once("close", () => resolve()));
      io.close(); // disconnects live-update clients and stops the HTTP server from accepting
      httpServer.closeIdleConnections();
      const cutOff = setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await stopped;
      clearTimeout(cutOff);
      stopInvalidatingPages();
      await stopRealtimeSharing?.();
      await stopListeningCopies();
      await disconnectDb();
      setStorage(undefined);
      await embedded?.stop();
    },
  };
}
