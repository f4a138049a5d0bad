import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A real Icecast 2 server (Debian's `icecast2`) with a real source client
 * (Debian's `ffmpeg` looping a bundled MP3 at real-time speed) on loopback,
 * for tests about the live stream: drops, restarts, now-playing titles.
 *
 * Icecast refuses to run as root, so as root its config hands it over to
 * the `icecast2` user (`<changeowner>`); its temp folder is given to that user.
 * The mount keeps Icecast's DEFAULT charset (ISO-8859-1 for MP3), as most
 * stations do, unless `charset` is given.
 */
export interface RunningIcecast {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The listener URL of the mount, e.g. http://127.0.0.1:PORT/live */
  streamUrl: string;
  mount: string;
  port: number;
  /**
   * Sets the mount's title through Icecast's admin metadata endpoint, as source clients do.
   * `charset` is what the client declares (default UTF-8, as ezstream and butt send);
   * `null` declares none, so Icecast reads the bytes in the mount's charset.
   */
  setTitle(title: string, options?: { charset?: string | null }): Promise<void>;
  /** Kills the source client: Icecast drops the mount and ends every listener's response. */
  stopSource(): Promise<void>;
  /** Starts the source client again and waits until the mount is on air. */
  startSource(): Promise<void>;
  /** Stops and starts Icecast itself on the same port, then the source again. */
  restartIcecast(options?: { downMs?: number }): Promise<void>;
  /** Whether the mount currently has a source (from status-json.xsl). */
  mountIsLive(): Promise<boolean>;
  /** Icecast's error log so far (for failure messages). */
  log(): Promise<string>;
  stop(): Promise<void>;
}

export interface IcecastOptions {
  mount?: string;
  /** The MP3 looped by the source (default: the first bundled demo episode). */
  audioFile?: string;
  /** `<charset>` of the mount; unset keeps Icecast's default. */
  charset?: string;
}

const ICECAST = "/usr/bin/icecast2";
const FFMPEG = "/usr/bin/ffmpeg";
const SOURCE_PASSWORD = "source-test-pw";
const ADMIN_PASSWORD = "admin-test-pw";
/** The admin password of the test Icecast (user "admin"): what ICECAST_ADMIN_PASSWORD gives the station. */
export const ICECAST_TEST_ADMIN_PASSWORD = ADMIN_PASSWORD;

export const icecastAvailable = existsSync(ICECAST) && existsSync(FFMPEG);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds; stops at once when `failed` gives a reason (a process that died). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000, failed: () => string | null = () => null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const reason = failed();
    if (reason) throw new Error(`Icecast: ${reason} while waiting for ${what}`);
    if (await check().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`Icecast: timed out waiting for ${what}`);
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function stopProcess(child: ChildProcess | null, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!child || exited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    child.once("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill(signal);
  });
}

export async function startIcecast(options: IcecastOptions = {}): Promise<RunningIcecast> {
  const mount = options.mount ?? "/live";
  const audioFile = path.resolve(options.audioFile ?? "prisma/seed-assets/audio/episode-1.mp3");
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "icecast-test-"));
  const asRoot = process.getuid?.() === 0;
  // status-json.xsl repeats it: proof that what answers on the port is this server, not another
  // test's Icecast or any other program that took the port between freePort() and Icecast's bind.
  const location = path.basename(dir);
  let port = 0;
  const configFile = path.join(dir, "icecast.xml");
  const writeConfig = async () => {
    const config = `<icecast>
  <location>${location}</location><admin>test@localhost</admin>
  <limits><clients>200</clients><sources>4</sources><source-timeout>5</source-timeout>
    <burst-on-connect>1</burst-on-connect><burst-size>65535</burst-size></limits>
  <authentication>
    <source-password>${SOURCE_PASSWORD}</source-password>
    <admin-user>admin</admin-user><admin-password>${ADMIN_PASSWORD}</admin-password>
  </authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>${port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <mount type="normal"><mount-name>${mount}</mount-name>${options.charset ? `<charset>${options.charset}</charset>` : ""}</mount>
  <fileserve>1</fileserve>
  <paths>
    <basedir>/usr/share/icecast2</basedir><logdir>${dir}</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot>
  </paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
  <security><chroot>0</chroot>${asRoot ? "<changeowner><user>icecast2</user><group>icecast</group></changeowner>" : ""}</security>
</icecast>`;
    await fs.writeFile(configFile, config);
    if (asRoot) {
      const { execFileSync } = await import("node:child_process");
      execFileSync("chown", ["-R", "icecast2:icecast", dir]);
    }
  };

  let url = "";
  const adminAuth = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}`;
  let icecast: ChildProcess | null = null;
  let source: ChildProcess | null = null;
  let icecastOutput = "";

  const status = async () => {
    const response = await fetch(`${url}/status-json.xsl`, { signal: AbortSignal.timeout(2_000) });
    return (await response.json()) as { icestats?: { location?: string; source?: { listenurl?: string } | { listenurl?: string }[] } };
  };
  const mountIsLive = async () => {
    const sources = (await status()).icestats?.source;
    const list = Array.isArray(sources) ? sources : sources ? [sources] : [];
    return list.some((s) => s.listenurl?.endsWith(mount));
  };

  const icecastDied = () => {
    const child = icecast as ChildProcess | null;
    return child && exited(child) ? `icecast2 exited (${child.exitCode ?? child.signalCode}) on port ${port}` : null;
  };
  const failure = async (error: Error) => new Error(`${error.message}\nicecast2: ${icecastOutput}\n${await readLog()}\nffmpeg: ${sourceOutput}`);

  const startServer = async () => {
    icecastOutput = "";
    icecast = spawn(ICECAST, ["-c", configFile], { stdio: ["ignore", "pipe", "pipe"] });
    icecast.stdout!.on("data", (chunk: Buffer) => (icecastOutput += chunk));
    icecast.stderr!.on("data", (chunk: Buffer) => (icecastOutput += chunk));
    await until("the server to answer", async () => (await status()).icestats?.location === location, 30_000, icecastDied).catch(async (error: Error) => {
      throw await failure(error);
    });
  };

  let sourceOutput = "";
  const spawnSource = () => {
    // -re: real-time speed like a live encoder; copy the MP3 frames as they are.
    const child = spawn(
      FFMPEG,
      [
        "-hide_banner",
        "-loglevel",
        "error",
        "-re",
        "-stream_loop",
        "-1",
        "-i",
        audioFile,
        "-vn",
        "-c:a",
        "copy",
        "-f",
        "mp3",
        "-content_type",
        "audio/mpeg",
        `icecast://source:${SOURCE_PASSWORD}@127.0.0.1:${port}${mount}`,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    child.stderr!.on("data", (chunk: Buffer) => (sourceOutput += chunk));
    return child;
  };
  const startSource = async (timeoutMs = 30_000) => {
    await stopProcess(source);
    sourceOutput = "";
    source = spawnSource();
    // Like a real source client, try again when the server refused the connection (still starting).
    await until(
      "the mount to go live",
      async () => {
        if (source && exited(source)) source = spawnSource();
        return mountIsLive();
      },
      timeoutMs,
      icecastDied,
    ).catch(async (error: Error) => {
      throw await failure(error);
    });
  };

  const readLog = () => fs.readFile(path.join(dir, "error.log"), "utf8").catch(() => "");

  // The port is free when freePort() looks, but another process may take it before Icecast binds
  // (any outgoing connection can get it as its local port): then start again on another one.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await writeConfig();
    try {
      await startServer();
      await startSource(attempt < 3 ? 15_000 : 30_000);
      break;
    } catch (error) {
      await stopProcess(source, "SIGKILL");
      await stopProcess(icecast);
      if (attempt >= 3) throw error;
    }
  }
  const streamUrl = `${url}${mount}`;

  return {
    url,
    streamUrl,
    mount,
    port,
    mountIsLive,
    startSource,
    async setTitle(title, { charset = "UTF-8" } = {}) {
      // A UTF-8 title on a mount with the default charset reaches ICY listeners as ISO-8859-1
      // with HTML entities for everything outside it ("Caf\xe9 &#8212; &#127925;").
      const query = new URLSearchParams({ mount, mode: "updinfo", song: title, ...(charset ? { charset } : {}) });
      const response = await fetch(`${url}/admin/metadata?${query}`, { headers: { Authorization: adminAuth } });
      if (!response.ok) throw new Error(`Icecast refused the title: ${response.status} ${await response.text()}`);
    },
    async stopSource() {
      await stopProcess(source, "SIGKILL");
      source = null;
      await until("the mount to go off air", async () => !(await mountIsLive()));
    },
    async restartIcecast({ downMs = 500 } = {}) {
      await stopProcess(source, "SIGKILL");
      await stopProcess(icecast);
      await sleep(downMs);
      await startServer();
      await startSource();
    },
    log: readLog,
    async stop() {
      await stopProcess(source, "SIGKILL");
      await stopProcess(icecast);
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
