import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { Server as SocketServer } from "socket.io";
import { getConfig, setConfig, withStoredSettings, type AppConfig } from "~/services/config.server";
import { waitForDatabase } from "~/services/database-check.server";
import { connectDb, disconnectDb } from "~/services/db.server";
import type { EmbeddedPostgres } from "~/services/embedded-postgres.server";
import { checkHealth, withoutErrorTexts } from "~/services/health.server";
import { logger } from "~/services/log.server";
import { applyMigrations } from "~/services/migrations.server";
import { registerGauge } from "~/services/metrics.server";
import { attachRealtime, connectedListeners, onContentChanged } from "~/services/realtime.server";
import { resolveSessionSecret } from "~/services/session-secret.server";
import { createStorage, getStorage, setStorage } from "~/services/storage.server";
import { startNowPlayingFollower } from "~/models/now-playing.server";
import { ensurePins } from "~/models/pins.server";
import { sweepOrphans } from "~/models/orphans.server";
import { sweepTempFiles } from "~/services/temp-files.server";
import { isSeeded, SEED_DIR, seedStation } from "~/models/seed.server";
import { getStationIdentity } from "~/models/station.server";
import { startListeningCopyQueue } from "~/models/listening-copies.server";
import { createLiveRecorder } from "~/models/rewind.server";
import { startShowArchiver } from "~/models/show-archive.server";
import { ensureVapidKeys, startReminderSender } from "~/models/show-reminders.server";
import { setSingleton } from "~/services/singleton.server";
import { asksNotToBeTracked } from "~/models/audience.server";
import { startAudienceRollup } from "~/models/audience-rollup.server";
import { followIcecastAudience } from "~/models/listening-sessions.server";
import { recordServedAudio } from "~/models/podcast-downloads.server";
import { startStationDatabase } from "~/services/station-database.server";
import { forgetCachedReads } from "~/services/read-cache.server";
import { followStationSettings, loadStationSettings, onStationSettingsApplied } from "~/models/station-settings.server";
import { withDatabaseOutagePages } from "./database-outage";
import { createDemoStream } from "./demo-stream";
import { createMediaHandler, type AudioServed } from "./media";
import { isOperator, observeRequests, observeResponse, serveMetrics } from "./observability";
import { createPageCache } from "./page-cache";
import { calendarSlug, limitRequestBodies, refuseCrossSiteWrites, refuseMalformedHosts, refuseMalformedTarget, securityHeaders } from "./security";
import { shareRealtimeThroughPostgres } from "./realtime-adapter";
import { realtimeGuard } from "./realtime-guard";
import { mountRewindRoutes } from "./rewind";
import { mountWidgetRoutes } from "./widgets";
import { serveServiceWorker } from "./service-worker";

const BUILD_PATH = path.resolve("build/index.js");
// How long a shutdown waits for in-flight requests and uploads before cutting them.
const SHUTDOWN_GRACE_MS = 15_000;
// How often an instance offers to roll the audience's settled hours into aggregates (one instance does each round).
const AUDIENCE_ROLLUP_EVERY_MS = 60_000;

/** Podcast downloads (IAB v2.1) are counted where the audio is served: every /media audio answer, once it ended. */
function countPodcastDownload(served: AudioServed): void {
  const { req } = served;
  recordServedAudio({
    key: served.key,
    method: served.method,
    bytes: served.bytes,
    requestedBytes: served.requestedBytes,
    at: new Date(),
    listener: { address: req.ip ?? "", userAgent: req.headers["user-agent"], doNotTrack: asksNotToBeTracked(req.headers) },
  }).catch((error: Error) => logger.warn(`Audience: could not count a download of ${served.key}: ${error.message}`));
}

export interface RunningServer {
  url: string;
  port: number;
  databaseUrl: string;
  io: SocketServer;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Development: re-import the Remix build whenever it is rebuilt. */
  watchBuild?: boolean;
  /** Seed a new station in a short-lived child process (server/seed-process.ts), so the server keeps none of its memory. */
  seedInSeparateProcess?: boolean;
  /** The Remix server build to serve (default build/index.js): tests deploy a second version of the app with it. */
  buildPath?: string;
}

async function importBuild(buildPath = BUILD_PATH): Promise<ServerBuild> {
  try {
    await fs.access(buildPath);
  } catch {
    throw new Error("The app is not built yet: run `npm run build` first");
  }
  const { mtimeMs } = await fs.stat(buildPath);
  return withDatabaseOutagePages(await import(pathToFileURL(buildPath).href + "?t=" + mtimeMs));
}

/** Leftovers of a process killed mid-upload or mid-change; a failed sweep never stops the station. */
async function sweepOrphansAtStart(config: AppConfig): Promise<void> {
  try {
    const { unusedFiles, orphanedObjects } = await sweepOrphans({ graceMs: config.orphanGraceSeconds * 1000 });
    if (unusedFiles + orphanedObjects.length > 0)
      logger.info(`Removed ${unusedFiles} unused files and ${orphanedObjects.length} orphaned objects from storage`);
  } catch (error) {
    logger.warn(`Could not sweep orphaned files: ${(error as Error).message}`);
  }
  // Staged uploads (DATA_DIR/tmp/uploads) of a killed process: up to 200 MB each.
  const temps = await sweepTempFiles(config.orphanGraceSeconds * 1000).catch((error: Error) => {
    logger.warn(`Could not sweep temporary upload files: ${error.message}`);
    return 0;
  });
  if (temps > 0) logger.info(`Removed ${temps} temporary upload files left by an earlier run`);
}

/**
 * Runs server/seed-process.ts with this configuration; true when it seeded the station. The child
 * is tied to this process by an IPC channel: if the server dies (even by SIGKILL) the channel
 * closes and the child stops at once, so no half-done seeding writes files behind a restarted
 * server's orphan sweep.
 */
async function seedInChildProcess(config: AppConfig): Promise<boolean> {
  const { spawn } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    // The production build has it compiled next to this module (build/server/seed-process.js, see
    // `npm run build:server`); from source (development, tests) tsx runs the TypeScript.
    const compiled = import.meta.url.endsWith(".js");
    const args = compiled ? [fileURLToPath(new URL("seed-process.js", import.meta.url))] : ["--import", "tsx", path.resolve("server/seed-process.ts")];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, SPIN_SEED_CONFIG: JSON.stringify(config) },
      // Its log lines join the server's on stdout; its answer comes over the IPC channel.
      stdio: ["ignore", "inherit", "pipe", "ipc"],
    });
    let answer: unknown = null;
    let stderr = "";
    child.on("message", (message) => (answer = message));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
    child.once("error", (error) => reject(new Error(`Could not seed the station: ${error.message}`)));
    // "close", not "exit": it waits for the IPC channel too, so the answer has arrived.
    child.once("close", (code, signal) => {
      if (code === 0) resolve(answer === "seeded");
      else reject(new Error(`Could not seed the station: ${stderr.trim() || `the seeding process ended with ${signal ?? `code ${code}`}`}`));
    });
  });
}

/**
 * Boots the whole station: database (embedded when DATABASE_URL is unset),
 * migrations, then one HTTP server carrying Express, Remix and socket.io.
 */
export async function startServer(config: AppConfig, options: StartOptions = {}): Promise<RunningServer> {
  logger.level = config.logLevel;
  // Start-up and operational lines: text for humans, each one JSON line of the one logger.
  const log = (line: string) => logger.info(line);
  await fs.mkdir(config.dataDir, { recursive: true });

  let embedded: EmbeddedPostgres | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startStationDatabase(config.dataDir, log);
    databaseUrl = embedded.url;
    log(`Embedded PostgreSQL (data in ${path.join(config.dataDir, "postgres")})`);
  }

  try {
    await waitForDatabase(databaseUrl, { retries: config.databaseConnectRetries, log });
    await applyMigrations(databaseUrl, log);
    // The embedded server shares a small machine with the app: a few connections keep its cores
    // busy, and each one more is another PostgreSQL process holding memory.
    connectDb(databaseUrl, embedded ? 5 : 10);
    const sessionSecret = await resolveSessionSecret(config.sessionSecret, config.dataDir);
    setConfig({ ...config, sessionSecret });
    // Before anything reads the station's name, time zone or stream (the seed, the follower, pages).
    await loadStationSettings(log);
    setStorage(await createStorage(config.s3 ? { s3: config.s3 } : { dataDir: config.dataDir }));
    await ensurePins(log);
    // Web Push signs with the same keys on every instance and after every restart (made once, here).
    await ensureVapidKeys();
    const seeded =
      config.seedContent &&
      !(await isSeeded()) &&
      (options.seedInSeparateProcess ? await seedInChildProcess({ ...config, sessionSecret, databaseUrl }) : await seedStation());
    if (seeded) log("Seeded the station with the bundled content");
    await sweepOrphansAtStart(config);
  } catch (error) {
    await disconnectDb();
    await embedded?.stop();
    throw error;
  }

  // WAV/FLAC/AIFF episodes are encoded by a PostgreSQL-backed job queue every instance works from.
  const stopListeningCopies = startListeningCopyQueue(databaseUrl, log);

  let build = await importBuild(options.buildPath);
  const app = express();
  app.disable("x-powered-by");
  // Behind a proxy (docker-compose), the client's address comes from X-Forwarded-For.
  app.set("trust proxy", config.trustProxy);
  app.use(observeRequests());
  // Before anything builds a URL from the Host header (Remix, the page cache, absolute links).
  app.use(refuseMalformedHosts(config));
  const headers = securityHeaders(config);
  app.use(headers.middleware);
  // Media first: it is the hottest path and needs neither body checks nor compression.
  app.get("/media/*", createMediaHandler(getStorage, { fallbackImagePath: path.resolve("public/media-fallback.webp"), onAudioServed: countPodcastDownload }));
  app.use(refuseCrossSiteWrites(config));
  app.use(limitRequestBodies());
  app.use(compression());
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  // The installed app's worker, with the running build's version and files (see the file's comment).
  app.get(
    "/service-worker.js",
    serveServiceWorker(() => build),
  );

  app.get("/healthz", async (req, res) => {
    const health = await checkHealth();
    // Error texts name hosts, users and internals: only operators see them.
    res
      .status(health.ok ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json(isOperator(req, config) ? health : withoutErrorTexts(health));
  });
  app.get("/metrics", serveMetrics(config));
  mountRewindRoutes(app);
  const widgets = mountWidgetRoutes(app);

  let demo: Awaited<ReturnType<typeof createDemoStream>> | null = null;
  // The demo stream plays while the station has no stream of its own (STREAM_URL or the settings).
  const ensureDemo = async () => {
    if (demo) return demo;
    const station = getStationIdentity();
    demo = await createDemoStream(SEED_DIR, { stationName: station.name, stationDescription: station.tagline });
    setSingleton("demoStream", demo);
    return demo;
  };
  if (!getConfig().streamUrl) await ensureDemo();
  // The player always tunes in to /stream/live: the operator's stream when one is set (a fresh
  // redirect per connect keeps short-lived stream tokens working), else the demo stream. Read per
  // request: an admin may change the stream in the settings.
  app.get("/stream/live", (req, res) => {
    const streamUrl = getConfig().streamUrl;
    if (streamUrl) res.set("Cache-Control", "no-store").redirect(302, streamUrl);
    else if (demo) demo.handle(req, res);
    else res.status(503).set("Retry-After", "5").type("text/plain").send("The stream is starting");
  });

  // /shows/{slug}.ics: a Remix path segment cannot be a parameter with a suffix, so it is served by /show-calendar/{slug}.
  app.get(/^\/shows\/([^/]+)\.ics$/, (req, res, next) => {
    const slug = calendarSlug(req.path.slice("/shows/".length, -".ics".length));
    if (slug === null) {
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    // Remix builds its request from originalUrl.
    req.url = req.originalUrl = `/show-calendar/${slug}${req.url.slice(req.path.length)}`;
    next();
  });

  // Repeat requests for a kept page are answered before Express (the server below); this keeps
  // pages and replays them to the first request of each kind.
  const trustProxy = app.get("trust proxy fn") as (address: string | undefined, hop: number) => boolean;
  const pageCache = createPageCache({
    trustsPeer: (address) => trustProxy(address, 0),
    prepare(req, res, requestPath, secure) {
      observeResponse(req, res, requestPath);
      return headers.apply(res, secure);
    },
  });
  app.use(pageCache.middleware);
  // After the page cache, so cached pages never pay for a file lookup; and only for names with an
  // extension (favicon.svg...), so a page's path costs no failed file lookup either.
  const publicFiles = express.static("public", { maxAge: "1h" });
  app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));

  const mode = config.production ? "production" : "development";
  // What loaders and actions need from Express (see app/load-context.ts).
  const getLoadContext = (req: express.Request, res: express.Response) => ({
    clientIp: req.ip ?? "unknown",
    cspNonce: String(res.locals.cspNonce),
  });
  let handleRemixRequest = createRequestHandler({ build, mode, getLoadContext });
  app.all("*", (req, res, next) => handleRemixRequest(req, res, next));

  // A page kept for a request with the very same raw key is replayed before Express (page-cache.ts).
  // A target that is not a well-formed path is refused before the page cache or a route reads it.
  const httpServer = http.createServer((req, res) => {
    if (refuseMalformedTarget(req, res)) return;
    if (!pageCache.replayBeforeExpress(req, res)) app(req, res);
  });
  const guard = realtimeGuard(config.realtimeMaxPerAddress, trustProxy);
  const io = new SocketServer(httpServer, { serveClient: false, ...guard.options });
  guard.watch(io);
  // Several instances share one PostgreSQL; the embedded database serves a single instance.
  const stopRealtimeSharing = config.databaseUrl ? await shareRealtimeThroughPostgres(io, databaseUrl) : null;
  attachRealtime(io, stopRealtimeSharing !== null);
  const stopInvalidatingPages = onContentChanged(pageCache.invalidate);
  // One reader of the stream's titles for every listener (one per station when instances share PostgreSQL).
  const followNowPlaying = () => {
    const { streamUrl, rewindHours } = getConfig();
    return startNowPlayingFollower({
      streamUrl,
      demo: streamUrl ? null : demo,
      io,
      sharedDatabaseUrl: stopRealtimeSharing ? databaseUrl : null,
      // The live stream (the operator's, else the demo stream) is recorded for rewinding and show archives.
      createRecorder: rewindHours > 0 ? () => createLiveRecorder({ rewindHours, log }) : null,
      // The leader also reads Icecast's listeners for the audience figures.
      whileLeading: streamUrl
        ? (signal) =>
            followIcecastAudience(
              {
                streamUrl,
                pollSeconds: config.audiencePollSeconds,
                admin: config.icecastAdminPassword ? { user: config.icecastAdminUser, password: config.icecastAdminPassword } : null,
                log,
              },
              signal,
            )
        : null,
      log,
    });
  };
  let stopFollowingNowPlaying = followNowPlaying();
  // Settings saved here or on another instance: pages are rendered afresh, and a new stream (or
  // rewind window) is followed from now on, without a restart.
  let switching = Promise.resolve();
  const stopApplyingSettings = onStationSettingsApplied((previous) => {
    forgetCachedReads();
    pageCache.invalidate();
    const before = withStoredSettings(config, previous ?? {});
    const after = getConfig();
    if (before.streamUrl === after.streamUrl && before.rewindHours === after.rewindHours) return;
    switching = switching.then(async () => {
      await stopFollowingNowPlaying();
      if (!getConfig().streamUrl) await ensureDemo();
      stopFollowingNowPlaying = followNowPlaying();
      log(`Now following ${getConfig().streamUrl ? "the stream " + getConfig().streamUrl : "the built-in demo stream"}`);
    });
  });
  const stopFollowingSettings = followStationSettings(log);
  const stopAudienceRollup = startAudienceRollup(
    { sessionDays: config.audienceSessionDays, retentionDays: config.audienceRetentionDays },
    AUDIENCE_ROLLUP_EVERY_MS,
    log,
  );
  // Ended airings of archived shows become episodes; any instance may build one (the row is the job).
  const stopArchiving = startShowArchiver({ rewindHours: () => getConfig().rewindHours, log });
  // Reminders of followed shows and their new episodes, sent by one instance (the holder of its lock).
  const stopReminders = startReminderSender({ databaseUrl, log });
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
      stopFollowingSettings();
      stopApplyingSettings();
      await switching;
      await stopFollowingNowPlaying();
      await stopArchiving();
      await stopAudienceRollup();
      widgets.close();
      await stopReminders();
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
