import { execFile, execFileSync } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import sharp from "sharp";
import { io, type Socket } from "socket.io-client";
import { Agent, fetch, FormData, type RequestInit, type Response } from "undici";
import { parse } from "yaml";
import { needsListeningCopy, prepareAudio } from "~/services/audio.server";

/*
 * The operator's stack, run for real: the project's own Dockerfile is built and its own
 * docker-compose.yml and Caddyfile run on a real Docker engine, set up with the project's own
 * scripts/setup-compose.sh, in a copy of the working tree (as a fresh clone would be). Everything
 * goes through the proxy over HTTPS, as a browser would (with its Origin).
 *
 * No image registry is reachable here, so tests/ops/stand-ins/prepare.sh builds stand-ins tagged
 * with the exact image names the project's files use (no override file: the compose file runs
 * as it is). How each differs from the real image:
 * - node:24-bookworm-slim: Debian bookworm from debootstrap, the official Node 24 binary, this
 *   machine's npm and CA bundle (the CA only in the stand-in, never in the project's Dockerfile).
 * - postgres:16-alpine: PostgreSQL 15 from Debian bookworm with a short entry point of its own
 *   (same POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB and data directory).
 * - caddy:2.11.4-alpine: Caddy 2.6.2 from Debian bookworm (the Caddyfile sticks to 2.6 directives).
 * - chrislusf/seaweedfs:4.48: s3rver (npm) behind a `weed` command taking the same arguments; it
 *   checks the access key but not request signatures, and has no multipart uploads.
 * Compose is v2.26.1 (Debian trixie's package, unpacked), the engine Debian bookworm's 20.10.
 *
 * Containers live on the project's own bridge network; the proxy's ports are published on
 * 127.0.0.1 only, and nothing else is contacted (apt and npm inside image builds excepted).
 */

const ROOT = process.cwd();
const PROJECT = "spinops";
const DOCKER = execFileSafe("sh", ["-c", "command -v /usr/bin/docker || command -v docker"])?.trim() ?? "docker";
const engine = execFileSafe(DOCKER, ["info", "--format", "{{.ServerVersion}}"])?.trim();
const required = process.env.CI === "true" || process.env.REQUIRE_DOCKER === "1";
const skipReason = engine ? null : "no Docker engine answers (start dockerd as root, see .ci/run); required when CI=true";

function execFileSafe(file: string, args: string[]): string | null {
  try {
    return execFileSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 20_000 });
  } catch {
    return null;
  }
}

interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs a command in the stack's folder; rejects with its output when it fails. */
function run(file: string, args: string[], options: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: options.cwd ?? stackDir, env: { ...process.env, ...env, ...options.env }, timeout: options.timeoutMs ?? 600_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${file} ${args.join(" ")} failed (${error.code ?? error.signal}):\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}
const compose = (args: string[], options: { timeoutMs?: number } = {}) => run(DOCKER, ["compose", ...args], options);
const docker = (args: string[], options: { timeoutMs?: number } = {}) => run(DOCKER, args, options);

// The stack's ports are published on 127.0.0.1 only: "localhost" (the site's name, which Host and
// the certificate carry) is always dialled there, never at ::1.
const toLoopback = (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
  options.all ? callback(null, [{ address: "127.0.0.1", family: 4 }]) : callback(null, "127.0.0.1", 4);
const loopbackAgent = (tlsCa?: string) => new Agent({ connect: { ca: tlsCa, lookup: toLoopback as never } });

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

/**
 * The codecs a WAV or AIFF(-C) can carry that Debian bookworm's full ffmpeg (5.1) writes: each is
 * accepted by the app as an episode that gets an MP3 listening copy (prepareAudio goes by the
 * container), so the image's slim ffmpeg must decode every one. `mono`: 8 kHz mono encoders.
 * Not yet: AAC in a WAV (tag 0x00ff), which the image's ffmpeg refuses ("Invalid data found when
 * processing input") although its aac decoder and parser are built in.
 */
const UPLOAD_CODECS: { encoder: string; container: "wav" | "aiff"; mono?: boolean }[] = [
  ...["pcm_u8", "pcm_s16le", "pcm_s24le", "pcm_s32le", "pcm_s64le", "pcm_f32le", "pcm_f64le", "pcm_alaw", "pcm_mulaw"].map((encoder) => ({
    encoder,
    container: "wav" as const,
  })),
  ...["pcm_s8", "pcm_u8", "pcm_s16be", "pcm_s16le", "pcm_s24be", "pcm_s32be", "pcm_f32be", "pcm_f64be", "pcm_alaw", "pcm_mulaw"].map((encoder) => ({
    encoder,
    container: "aiff" as const,
  })),
  // ADPCM: AIFF-C's ima4 (QuickTime IMA) and Westwood IMA; WAV's Microsoft, IMA, Yamaha and Flash (G.722, G.726: below).
  { encoder: "adpcm_ima_qt", container: "aiff" },
  { encoder: "adpcm_ima_ws", container: "aiff" },
  ...["adpcm_ms", "adpcm_ima_wav", "adpcm_yamaha", "adpcm_swf"].map((encoder) => ({ encoder, container: "wav" as const })),
  ...["g722", "g726", "g723_1", "libgsm_ms", "libspeex"].map((encoder) => ({ encoder, container: "wav" as const, mono: true })),
  ...["flac", "libmp3lame", "libshine", "mp2", "libtwolame", "ac3", "eac3", "dca", "wmav1", "wmav2", "libvorbis", "dfpwm"].map((encoder) => ({
    encoder,
    container: "wav" as const,
  })),
];

let stackDir = "";
let env: Record<string, string> = {};
let base = "";
let dispatcher: Agent;
let ca = "";
const pins = { admin: "", public: "" };
const figures: Record<string, string> = {};

/** A request through the proxy, as a browser on the site sends it (same-origin Origin on posts). */
function request(pathname: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers as Record<string, string> | undefined);
  if (init.method && init.method !== "GET" && init.method !== "HEAD") headers.set("Origin", base);
  if (init.cookie) headers.set("Cookie", init.cookie);
  return fetch(`${base}${pathname}`, { redirect: "manual", ...init, headers, dispatcher });
}

async function enterAdmin(pin = pins.admin): Promise<Response> {
  return request("/pin", { method: "POST", body: new URLSearchParams({ kind: "admin", pin, redirectTo: "/dashboard-admin" }) });
}

function cookieOf(response: Response, name: string): string {
  const header = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!header) throw new Error(`no ${name} cookie (status ${response.status})`);
  return header;
}

async function adminCookie(): Promise<string> {
  const response = await enterAdmin();
  expect(response.status, await response.text()).toBe(302);
  return cookieOf(response, "__admin").split(";")[0];
}

const mediaUrls = (html: string) => new Set([...html.matchAll(/\/media\/[^"'\s?)]+\.(?:webp|jpg|png)/g)].map((m) => m[0]));

async function uploadJumbotron(cookie: string, color: string): Promise<string> {
  const before = mediaUrls(await (await request("/listen")).text());
  const form = new FormData();
  form.append("intent", "replace-jumbotron");
  const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: color } })
    .png()
    .toBuffer();
  form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "jumbotron.png");
  const response = await request("/dashboard-admin", { method: "POST", body: form, cookie });
  expect([200, 302, 303], await response.text()).toContain(response.status);
  // The new picture is the media URL /listen did not show before.
  let added: string[] = [];
  for (let i = 0; i < 20 && added.length === 0; i++) {
    added = [...mediaUrls(await (await request("/listen")).text())].filter((u) => !before.has(u));
    if (added.length === 0) await new Promise((r) => setTimeout(r, 250));
  }
  expect(added.length).toBeGreaterThan(0);
  return added[0];
}

async function waitForHealthy(limitMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const ok = await request("/healthz")
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`not healthy through the proxy within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function appContainers(): Promise<string[]> {
  const { stdout } = await compose(["ps", "-q", "app"]);
  const ids = stdout.split("\n").filter(Boolean);
  const names = await Promise.all(ids.map(async (id) => (await docker(["inspect", "-f", "{{.Name}}", id])).stdout.trim().replace(/^\//, "")));
  return names.sort();
}

describe.skipIf(skipReason !== null && !required)(`the operator's stack on a real Docker engine${skipReason ? ` (skipped: ${skipReason})` : ""}`, () => {
  let jumbotron = "";
  let episodeAudio = "";

  beforeAll(async () => {
    if (skipReason) throw new Error(`The operator test needs a Docker engine: ${skipReason}`);
    // Stand-ins and Compose v2 (cached; see tests/ops/stand-ins/prepare.sh).
    const started = performance.now();
    const prepared = await run("bash", [path.join(ROOT, "tests/ops/stand-ins/prepare.sh")], { cwd: ROOT, env: { DOCKER }, timeoutMs: 900_000 });
    figures.standIns = `${Math.round((performance.now() - started) / 1000)} s`;
    const dockerConfig = /^DOCKER_CONFIG=(.+)$/m.exec(prepared.stdout)?.[1];
    if (!dockerConfig) throw new Error(`prepare.sh gave no DOCKER_CONFIG:\n${prepared.stdout}\n${prepared.stderr}`);

    // A copy of the working tree (tracked and new files, nothing ignored): what a clone gives.
    stackDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-ops-"));
    const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
      .split("\0")
      .filter(Boolean);
    for (const file of files) {
      const stat = await fs.stat(path.join(ROOT, file)).catch(() => null);
      if (!stat?.isFile()) continue;
      await fs.mkdir(path.dirname(path.join(stackDir, file)), { recursive: true });
      await fs.copyFile(path.join(ROOT, file), path.join(stackDir, file));
    }
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    base = `https://localhost:${httpsPort}`;
    env = {
      DOCKER_CONFIG: dockerConfig,
      COMPOSE_PROJECT_NAME: PROJECT,
      // The classic builder takes the stand-in base image from the engine's own images.
      DOCKER_BUILDKIT: "0",
      COMPOSE_DOCKER_CLI_BUILD: "0",
      PUBLISH_ADDRESS: "127.0.0.1",
      HTTP_PORT: String(httpPort),
      HTTPS_PORT: String(httpsPort),
    };
    // A stack left by an interrupted run goes first (down needs the variables only to read the file).
    const placeholders = { POSTGRES_PASSWORD: "-", S3_ACCESS_KEY: "-", S3_SECRET_KEY: "-", SESSION_SECRET: "-" };
    await run(DOCKER, ["compose", "down", "-v", "--remove-orphans"], { env: placeholders }).catch(() => {});

    // The image from the project's Dockerfile, built by compose and timed on its own (the setup
    // script's build then finds every layer cached).
    const build = performance.now();
    await run(DOCKER, ["compose", "build", "app"], { env: placeholders, timeoutMs: 1_500_000 });
    figures.build = `${Math.round((performance.now() - build) / 1000)} s`;

    // The README's one setup command: writes .env, starts the stack, prints the PINs once.
    const up = performance.now();
    const setup = await run("sh", ["scripts/setup-compose.sh", "localhost"], { timeoutMs: 600_000 });
    figures.upToServing = `${Math.round((performance.now() - up) / 100) / 10} s (setup-compose.sh: .env, start, healthy, then the app recreated without the PINs)`;
    pins.admin = /Admin PIN:\s+(\d{6})/.exec(setup.stdout)?.[1] ?? "";
    pins.public = /Public PIN:\s+(\S{5})/.exec(setup.stdout)?.[1] ?? "";
    expect(pins.admin, setup.stdout).toMatch(/^\d{6}$/);

    // Caddy's own local authority signed the certificate for localhost: trust exactly that root.
    ca = (await compose(["exec", "-T", "proxy", "cat", "/data/caddy/pki/authorities/local/root.crt"])).stdout;
    dispatcher = loopbackAgent(ca);
    await waitForHealthy(60_000);
  }, 1_800_000);

  afterAll(async () => {
    if (!stackDir) return;
    if (figures.build) console.log(`operator stack figures: ${JSON.stringify(figures)}`);
    await compose(["down", "-v", "--remove-orphans"], { timeoutMs: 120_000 }).catch((error: Error) => console.error(error.message));
    await fs.rm(stackDir, { recursive: true, force: true });
  }, 180_000);

  it("builds a lean image that runs as a non-root user, without tsx or dev dependencies", async () => {
    const [size, user] = (await docker(["image", "inspect", "-f", "{{.Size}} {{.Config.User}}", "spin-radio:local"])).stdout.trim().split(" ");
    figures.imageSize = `${Math.round(Number(size) / 1e6)} MB`;
    expect(user).toBe("node");
    const { stdout } = await docker([
      "run",
      "--rm",
      "--network",
      "none",
      "--entrypoint",
      "sh",
      "spin-radio:local",
      "-c",
      "du -sm /usr/local/bin/node /usr/local/bin/ffmpeg /app/node_modules /app/build /app/public /usr/lib/x86_64-linux-gnu | sort -rn; ls /app; ls /app/node_modules | grep -cx 'tsx\\|typescript\\|vitest\\|@remix-run/dev\\|prisma' || true; ffmpeg -hide_banner -version | head -1",
    ]);
    figures.imageContents = stdout.trim().replace(/\s+/g, " ");
    expect(stdout).not.toMatch(/^tests$|^README/m);
    expect(stdout).toMatch(/^0$/m);
    expect(stdout).toMatch(/ffmpeg version/);
    expect(Number(size)).toBeLessThanOrEqual(400e6);
  });

  it("converts every codec a WAV or AIFF(-C) upload the app accepts can carry, ADPCM AIFF-C included", async () => {
    // One short file per codec this machine's full ffmpeg writes into the containers the app takes
    // as lossless originals (found by trying each of its audio encoders with the wav and aiff
    // muxers; Sonic is left out: not even the full ffmpeg decodes what its encoder writes).
    const dir = path.join(stackDir, "codecs");
    await fs.mkdir(dir);
    const made = await Promise.all(
      UPLOAD_CODECS.map(async ({ encoder, container, mono }) => {
        const file = path.join(dir, `${encoder}.${container}`);
        const layout = mono ? ["-ac", "1", "-ar", "8000"] : ["-ac", "2", "-ar", "44100"];
        await run(
          "ffmpeg",
          [
            "-hide_banner",
            "-loglevel",
            "error",
            "-f",
            "lavfi",
            "-i",
            "sine=frequency=440:duration=0.5",
            ...layout,
            "-strict",
            "-2",
            "-c:a",
            encoder,
            "-f",
            container,
            "-y",
            file,
          ],
          { cwd: ROOT },
        );
        // The app takes it (by its first bytes, with a duration it can read)...
        const bytes = await fs.readFile(file);
        const prepared = await prepareAudio({ path: file, size: bytes.length, sha256: "", head: bytes.subarray(0, 4096) });
        expect(needsListeningCopy(prepared.contentType), file).toBe(true);
        return path.basename(file);
      }),
    );
    // ...and the image's ffmpeg turns each into an MP3 listening copy with the app's filter and encoder.
    await fs.chmod(dir, 0o755);
    const { stdout } = await docker([
      "run",
      "--rm",
      "--network",
      "none",
      "-v",
      `${dir}:/codecs:ro`,
      "--entrypoint",
      "sh",
      "spin-radio:local",
      "-c",
      'for f in /codecs/*; do if ffmpeg -hide_banner -nostdin -loglevel error -i "$f" -af loudnorm=I=-16:TP=-1.5:LRA=11 -ar 44100 -c:a libmp3lame -b:a 128k -f mp3 -y /tmp/out.mp3 2>/tmp/err && [ -s /tmp/out.mp3 ]; then echo "ok ${f#/codecs/}"; else echo "FAILED ${f#/codecs/}: $(tail -1 /tmp/err)"; fi; done',
    ]);
    expect(stdout.split("\n").filter((line) => !line.startsWith("ok ") && line !== "")).toEqual([]);
    expect(stdout.match(/^ok /gm)).toHaveLength(made.length);
  });

  it("serves the station through the proxy over HTTPS: health, /listen, the feed and an episode with Range", async () => {
    expect((await request("/healthz")).status).toBe(200);
    const listen = await request("/listen");
    expect(listen.status).toBe(200);
    expect(await listen.text()).toContain("<html");
    const feed = await request("/podcast.xml");
    expect(feed.status).toBe(200);
    const xml = await feed.text();
    expect(xml).toContain("<rss");
    const enclosure = /<enclosure url="([^"]+\/media\/[^"]+)"/.exec(xml)?.[1];
    expect(enclosure).toBeTruthy();
    episodeAudio = new URL(enclosure!.replace(/&amp;/g, "&")).pathname;
    // The demo's WAV episodes were encoded to MP3 listening copies by the image's ffmpeg.
    expect(episodeAudio).toMatch(/\.mp3$/);
    const part = await request(episodeAudio, { headers: { Range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).length).toBe(100);
    // Plain HTTP is redirected to HTTPS by the proxy.
    const plain = await fetch(`http://localhost:${env.HTTP_PORT}/listen`, { redirect: "manual", dispatcher: loopbackAgent() });
    expect(plain.status).toBe(308);
  });

  it("takes the admin PIN from the dialog into admin (Secure cookie), and serves an uploaded image afterwards", async () => {
    const wrong = await enterAdmin(pins.admin === "000000" ? "111111" : "000000");
    expect(wrong.status).toBe(401);
    const entered = await enterAdmin();
    expect(entered.status).toBe(302);
    expect(cookieOf(entered, "__admin")).toMatch(/;\s*Secure/i);
    const cookie = cookieOf(entered, "__admin").split(";")[0];
    const dashboard = await request("/dashboard-admin", { cookie });
    expect(dashboard.status).toBe(200);
    jumbotron = await uploadJumbotron(cookie, "#c0392b");
    const image = await request(jumbotron);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toMatch(/^image\//);
  });

  it("upgrades socket.io to WebSocket through the proxy", async () => {
    const socket: Socket = io(base, { ca, extraHeaders: { Origin: base }, reconnection: false });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.io.engine.once("upgrade", () => resolve());
        socket.once("connect_error", reject);
        setTimeout(() => reject(new Error("no WebSocket upgrade within 15 s")), 15_000);
      });
      expect(socket.io.engine.transport.name).toBe("websocket");
    } finally {
      socket.close();
    }
  });

  it("scales to 3 instances without restarting the proxy: requests spread, a change shows on all, polling stays on one", async () => {
    await compose(["up", "-d", "--wait", "--scale", "app=3"]);
    const instances = await appContainers();
    expect(instances).toHaveLength(3);
    // Each instance logs the requests it answered (the path names this test's round).
    const marker = `ops-spread-${Date.now()}`;
    for (let i = 0; i < 30; i++) await request(`/${marker}-${i}`);
    const logs = (await compose(["logs", "--no-color", "app"])).stdout;
    const answered = new Map<string, number>();
    for (const line of logs.split("\n").filter((l) => l.includes(marker))) {
      const instance = line.split("|")[0].trim();
      answered.set(instance, (answered.get(instance) ?? 0) + 1);
    }
    expect([...answered.keys()].sort(), logs.slice(-2000)).toHaveLength(3);
    for (const count of answered.values()) expect(count).toBeGreaterThanOrEqual(5);

    // A change made through one instance shows on every one (pages are served round robin).
    const cookie = await adminCookie();
    jumbotron = await uploadJumbotron(cookie, "#2980b9");
    for (let i = 0; i < 9; i++) expect(await (await request("/listen")).text()).toContain(jumbotron);

    // socket.io's long-polling: every request of one connection reaches the instance that holds it.
    const open = await request("/socket.io/?EIO=4&transport=polling");
    expect(open.status).toBe(200);
    const sid = /"sid":"([^"]+)"/.exec(await open.text())?.[1];
    const sticky = cookieOf(open, "spin_lb").split(";")[0];
    for (let i = 0; i < 6; i++) {
      const poll = await request(`/socket.io/?EIO=4&transport=polling&sid=${sid}`, {
        method: "POST",
        body: "3",
        cookie: sticky,
        headers: { "Content-Type": "text/plain" },
      });
      expect(poll.status, await poll.text()).toBe(200);
    }
  });

  it("routes around a stopped instance within 3 s", async () => {
    const [, , last] = await appContainers();
    await docker(["stop", "--time", "0", last]);
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const response = await request("/listen");
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      expect(performance.now() - started).toBeLessThan(3000);
    }
    await compose(["up", "-d", "--wait", "--scale", "app=3"]);
  });

  it("recovers after PostgreSQL restarts, with nothing lost", async () => {
    const cookie = await adminCookie();
    await compose(["restart", "postgres"]);
    await waitForHealthy(60_000);
    // Pages, the admin session opened before, the uploaded image and the episode are all there.
    let html = "";
    for (let i = 0; i < 20 && !html.includes(jumbotron); i++) {
      html = await (await request("/listen")).text();
      if (!html.includes(jumbotron)) await new Promise((r) => setTimeout(r, 500));
    }
    expect(html).toContain(jumbotron);
    expect((await request("/dashboard-admin", { cookie })).status).toBe(200);
    expect((await request(jumbotron)).status).toBe(200);
    expect((await request(episodeAudio, { headers: { Range: "bytes=0-9" } })).status).toBe(206);
  });

  it("keeps the same PINs when every container is recreated, and changes them only from the dashboard", async () => {
    await compose(["up", "-d", "--wait", "--force-recreate", "--scale", "app=3"]);
    await waitForHealthy(60_000);
    expect((await enterAdmin()).status).toBe(302);
    const publicPin = await request("/pin", { method: "POST", body: new URLSearchParams({ kind: "public", pin: pins.public }) });
    expect(publicPin.status).toBe(302);
    const logs = (await compose(["logs", "--no-color", "app"])).stdout;
    expect(logs).not.toContain("Generated the");
    // The PINs are in no container's environment: they were given to the first start only.
    const { stdout } = await compose(["exec", "-T", "--index", "1", "app", "sh", "-c", 'echo "[$ADMIN_PIN][$PUBLIC_PIN]"']);
    expect(stdout.trim()).toBe("[][]");
  });

  it("backs up and restores the whole station (the README's drill), PINs included", async () => {
    // Backup while running: every row and every stored file into one archive, copied out.
    await compose(["exec", "-T", "--index", "1", "app", "node", "build/server/export.js", "/tmp/station.tar.gz"]);
    await compose(["cp", "--index", "1", "app:/tmp/station.tar.gz", "station.tar.gz"]);
    // Everything is lost: containers and volumes.
    await compose(["down", "-v"]);
    // Restore, word for word as the README says.
    await compose(["up", "-d", "--wait", "postgres", "s3"]);
    await run("sh", ["-c", `${DOCKER} compose run --rm -v "$PWD/station.tar.gz:/tmp/station.tar.gz" app node build/server/import.js /tmp/station.tar.gz`]);
    await compose(["up", "-d", "--wait"]);
    // The proxy's data volume went too: it made a new local authority.
    ca = (await compose(["exec", "-T", "proxy", "cat", "/data/caddy/pki/authorities/local/root.crt"])).stdout;
    dispatcher = loopbackAgent(ca);
    await waitForHealthy(60_000);
    expect(await (await request("/listen")).text()).toContain(jumbotron);
    expect((await request(jumbotron)).status).toBe(200);
    expect((await request(episodeAudio, { headers: { Range: "bytes=0-9" } })).status).toBe(206);
    expect((await enterAdmin()).status).toBe(302);
    const logs = (await compose(["logs", "--no-color", "app"])).stdout;
    expect(logs).toContain("on the air");
    expect(logs).not.toContain("Generated the");
  });

  it("uses only images the compose file pins, and publishes ports on the address given", async () => {
    const file = parse(await fs.readFile(path.join(stackDir, "docker-compose.yml"), "utf8")) as {
      services: Record<string, { image?: string; ports?: string[] }>;
    };
    for (const [name, service] of Object.entries(file.services)) {
      if (name === "app") continue;
      expect(service.image, name).toMatch(/:[0-9][\w.-]*$/);
    }
    const { stdout } = await compose(["port", "proxy", "443"]);
    expect(stdout.trim()).toBe(`127.0.0.1:${env.HTTPS_PORT}`);
  });
});
