import { runInNewContext } from "node:vm";
import v8 from "node:v8";
import { io as connect, type Socket } from "socket.io-client";
import { db } from "~/services/db.server";
import { connectedListeners } from "~/services/realtime.server";
import { adminCookie, expectStorageConsistent, postAdminForm, testImage } from "./helpers/admin";
import { createTestDatabase, type TestDatabase } from "./helpers/database";
import { captureLog } from "./helpers/log";
import { startTestServer, type TestServer } from "./helpers/server";
import { databaseTarget, startTcpProxy, type TcpProxy } from "./helpers/tcp-proxy";

// Two minutes of listeners and an admin on one server (loopback only, fixed
// concurrency), then: no errors, connections and sockets back to where they
// were, heap after GC within a bound, and every write present.

// SOAK_MS shortens it for a quick local look; `npm test` runs the full two minutes.
const TRAFFIC_MS = Number(process.env.SOAK_MS ?? 120_000);
const LISTENERS = 6;
const HEAP_GROWTH_LIMIT = 40 * 1024 * 1024;
const PAGES = ["/listen", "/cardlistmore", "/events", "/CrewSpin", "/chartcontent", "/watch", "/now-playing", "/manifest.webmanifest", "/healthz"];
const EMBED = (n: number) => `<iframe src="https://open.spotify.com/embed/playlist/soak${n}" width="300" height="380"></iframe>`;

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const tcpSockets = () => process.getActiveResourcesInfo().filter((resource) => resource === "TCPSocketWrap").length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settle(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(250);
  }
  return true;
}

describe("soak", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Every database connection of the app passes through this proxy, which counts them.
    proxy = await startTcpProxy(databaseTarget(database.url));
    server = await startTestServer({}, { database: { ...database, url: proxy.urlFor(database.url) } });
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await database?.drop();
  });

  it(
    "serves two minutes of mixed traffic without errors, leaks or lost writes",
    async () => {
      const logged: unknown[][] = [];
      const consoleError = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args));
      const log = captureLog();
      const failures: string[] = [];
      const cookie = await adminCookie(server.url);
      await sleep(500);
      const baseline = { connections: proxy.openConnections(), sockets: tcpSockets(), heap: heapAfterGc() };
      let peakConnections = 0;
      const stopAt = Date.now() + TRAFFIC_MS;

      const listener = async (id: number) => {
        let n = 0;
        while (Date.now() < stopAt) {
          const page = PAGES[(id + n++) % PAGES.length]!;
          // Half the visits are "fresh" (query string) so they render instead of coming from the page cache.
          const url = `${server.url}${page}${n % 2 ? `?v=${id}-${n}` : ""}`;
          try {
            const response = await fetch(url);
            const body = await response.text();
            if (response.status !== 200) failures.push(`${page}: HTTP ${response.status}`);
            for (const media of body.match(/\/media\/[a-z0-9/._-]+\.webp/g)?.slice(0, 2) ?? []) {
              const image = await fetch(`${server.url}${media}`);
              await image.arrayBuffer();
              if (image.status !== 200) failures.push(`${media}: HTTP ${image.status}`);
            }
          } catch (error) {
            failures.push(`${page}: ${(error as Error).message}`);
          }
          peakConnections = Math.max(peakConnections, proxy.openConnections());
        }
      };

      // Live-update listeners come and go; each must be let go by the server.
      const realtime = async () => {
        const sockets: Socket[] = [];
        while (Date.now() < stopAt) {
          const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
          await new Promise<void>((resolve) => {
            socket.once("connect", () => resolve());
            socket.once("connect_error", (error) => {
              failures.push(`socket.io: ${error.message}`);
              resolve();
            });
          });
          sockets.push(socket);
          if (sockets.length > 3) sockets.shift()!.disconnect();
          await sleep(2_000);
        }
        for (const socket of sockets) socket.disconnect();
      };

      const created: string[] = [];
      const deleted: string[] = [];
      const embeds: string[] = [];
      const admin = async () => {
        let n = 0;
        while (Date.now() < stopAt - 3_000) {
          n++;
          const name = `Soak Event ${n}`;
          const color = `#${((n * 2654435761) >>> 8).toString(16).padStart(6, "0").slice(-6)}`;
          const response = await postAdminForm(
            server.url,
            "/eventsAdmin",
            cookie,
            { formId: "event", intent: "save-event", name, date: "2026-12-01", time: "19:30" },
            { poster: await testImage(color, 320, 400) },
          );
          if (response.status === 200) created.push(name);
          else failures.push(`save-event ${name}: HTTP ${response.status}`);
          await response.text();
          if (n % 3 === 0) {
            const code = EMBED(n);
            const embed = await postAdminForm(server.url, "/chartcontentadmin", cookie, { formId: "embed-form", intent: "add-embed", code });
            if (embed.status === 200) embeds.push(`soak${n}`);
            else failures.push(`add-embed: HTTP ${embed.status}`);
            await embed.text();
          }
          if (n % 4 === 0) {
            const oldest = created.find((event) => !deleted.includes(event))!;
            const row = await db().event.findUnique({ where: { name: oldest } });
            const removal = await postAdminForm(server.url, "/eventsAdmin", cookie, {
              formId: `delete-${row?.id}`,
              intent: "delete-event",
              id: row?.id ?? "",
              name: oldest,
            });
            if (removal.status === 200) deleted.push(oldest);
            else failures.push(`delete-event ${oldest}: HTTP ${removal.status}`);
            await removal.text();
          }
          await sleep(700);
        }
      };

      await Promise.all([...Array.from({ length: LISTENERS }, (_, id) => listener(id)), realtime(), admin()]);

      // Every write is there, on the page and in the database; nothing else is.
      const kept = created.filter((name) => !deleted.includes(name));
      expect(created.length).toBeGreaterThan(TRAFFIC_MS / 4_000);
      expect(deleted.length).toBeGreaterThan(TRAFFIC_MS / 20_000);
      const events = await db().event.findMany({ select: { name: true } });
      expect(events.map((e) => e.name).sort()).toEqual([...kept].sort());
      const eventsPage = await (await fetch(`${server.url}/events?after-soak`)).text();
      for (const name of kept) expect(eventsPage, name).toContain(name);
      const storedEmbeds = await db().embed.findMany({ select: { code: true } });
      for (const marker of embeds)
        expect(
          storedEmbeds.some((embed) => embed.code.includes(marker)),
          marker,
        ).toBe(true);
      await expectStorageConsistent();

      expect(logged.map((args) => args.map((arg) => (arg instanceof Error ? arg.stack : String(arg))).join(" "))).toEqual([]);
      expect(log.entries().filter((entry) => entry.level === "error" || entry.level === "fatal")).toEqual([]);
      expect(failures).toEqual([]);
      consoleError.mockRestore();
      log.restore();

      // Bounded pools, and everything handed back once the traffic stops.
      // 10: the app's pool; 4: the realtime adapter's (server/realtime-adapter.ts); 2: one session per
      // single-instance job holding its advisory lock (the stream follower, the reminder sender:
      // app/services/leadership.server.ts); 3: the listening-copy job queue's own pool
      // (app/models/listening-copies.server.ts).
      expect(peakConnections).toBeLessThanOrEqual(10 + 4 + 2 + 3);
      const [listenersGone, connectionsBack, socketsBack] = await Promise.all([
        settle(() => connectedListeners() === 0, 10_000),
        settle(() => proxy.openConnections() <= Math.max(baseline.connections, 1), 15_000),
        settle(() => tcpSockets() <= baseline.sockets, 15_000),
      ]);
      expect(listenersGone).toBe(true);
      expect(connectionsBack, `database connections: ${proxy.openConnections()} (baseline ${baseline.connections})`).toBe(true);
      expect(socketsBack, `TCP sockets: ${tcpSockets()} (baseline ${baseline.sockets})`).toBe(true);
      const heap = heapAfterGc();
      expect(heap - baseline.heap, `heap grew from ${baseline.heap} to ${heap}`).toBeLessThan(HEAP_GROWTH_LIMIT);
    },
    TRAFFIC_MS + 25_000,
  );
});
