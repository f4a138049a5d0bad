// `npm run bench`: the production server on the embedded defaults, loaded on loopback next to
// a bare Node baseline, with each figure printed beside its target (README "Benchmark").
// Options: --listeners N (or BENCH_LISTENERS, default 2000), --duration S (or BENCH_DURATION,
// seconds per load run, default 10), --idle S (or BENCH_IDLE, seconds idle before the idle
// memory figure, default 60), --skip-lighthouse, --profile (writes a CPU profile of the server
// under load to bench-<time>.cpuprofile and prints where its time went),
// --programme-only (only the schedule and song history figures), --rewind-only (only the rewind
// and show archive figures, against a real Icecast), --audience-only (only the audience figures:
// a year of generated listening sessions rolled up and the Audience screen's answer time;
// BENCH_AUDIENCE_SESSIONS_PER_DAY, default 2000).
import { execFileSync } from "node:child_process";
import { randomInt } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { adminCookie } from "./bench/admin";
import { startBareRemix } from "./bench/bare-remix";
import { load, type LoadResult } from "./bench/http-load";
import { lighthouseAvailable, runLighthouse, type LighthouseResult } from "./bench/lighthouse";
import { summariseProfile } from "./bench/profile";
import { cleanUp, firstLine, freePort, makeTempDir, prepareProductionBuild, residentBytes, startChild, stopGracefully, treePss } from "./bench/processes";
import { benchAudience } from "./bench/audience";
import { benchProgramme } from "./bench/programme";
import { benchRewind } from "./bench/rewind";
import { connectListeners, percentile } from "./bench/realtime";
import { figure, formatNumber, heading, kilobytes, megabytes, missedTargets, unmeasured } from "./bench/report";

const CONNECTIONS = 50;
// Signed-in pages are measured at 20 connections, as their targets are set.
const SIGNED_IN_CONNECTIONS = 20;
const MEDIA_RANGE_BYTES = 65_536;
const HEALTH_TIMEOUT_MS = 120_000;
// The sanitizer keeps only the player itself; this one is on the default allow-list.
const BENCH_EMBED = '<iframe src="https://open.spotify.com/embed/episode/bench" width="100%" height="152"></iframe>';

function option(flag: string, envName: string, fallback: number): number {
  const index = process.argv.indexOf(flag);
  const raw = index >= 0 ? process.argv[index + 1] : process.env[envName];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} / ${envName} must be a whole number above 0 (got "${raw}")`);
  return value;
}

const log = (line: string) => console.log(`· ${line}`);
const ms = (value: number) => `${formatNumber(value, value < 10 ? 1 : 0)} ms`;
const rps = (value: number) => `${formatNumber(value)} req/s`;
const mbps = (bytesPerSecond: number) => `${formatNumber(bytesPerSecond / 1024 / 1024, 1)} MB/s`;
const ratio = (value: number) => `${formatNumber(value, 2)}×`;
const failures = (result: LoadResult) => (result.answered === 0 ? " (none answered in time)" : result.failed > 0 ? ` (${result.failed} failed)` : "");

async function fetchText(url: string, init?: RequestInit): Promise<string> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return response.text();
}

async function waitForHealth(url: string, child: { exitCode: number | null }, logFile: string): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const healthy = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const tail = (await fsp.readFile(logFile, "utf8").catch(() => "")).split("\n").slice(-15).join("\n");
  throw new Error(`The server did not become healthy:\n${tail}`);
}

/** Every script the /listen HTML makes the browser load up front: modulepreloads, script src and module imports. */
function scriptUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/import(?:\s*\(\s*|[^"'()]*?from\s*|\s+)"([^"]+\.js)"/g)) urls.add(match[1]);
  return [...urls];
}

/** A listener account, registered and signed in: the cookies of its session. */
async function listenerCookie(url: string): Promise<string> {
  const email = `bench-${Date.now()}@example.com`;
  const password = "bench-password-123";
  const post = (page: string, fields: Record<string, string>) =>
    fetch(`${url}${page}`, {
      method: "POST",
      headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
  const registered = await post("/register", { name: "Bench Listener", email, password, conPassword: password });
  if (registered.status !== 302) throw new Error(`POST /register answered ${registered.status}`);
  const signedIn = await post("/login", { email, password });
  const cookies = signedIn.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (signedIn.status !== 302 || cookies.length === 0) throw new Error(`POST /login answered ${signedIn.status} without a session`);
  return cookies.join("; ");
}

const stationPss = (pid: number | undefined) => treePss(pid)?.bytes ?? null;

async function main(): Promise<void> {
  if (process.argv.includes("--programme-only")) {
    await prepareProductionBuild(log);
    await benchProgramme(log);
    reportMisses();
    return;
  }
  if (process.argv.includes("--rewind-only")) {
    await prepareProductionBuild(log);
    await benchRewind(log);
    reportMisses();
    return;
  }
  if (process.argv.includes("--audience-only")) {
    await prepareProductionBuild(log);
    await benchAudience(log);
    reportMisses();
    return;
  }
  const listeners = option("--listeners", "BENCH_LISTENERS", 2000);
  const duration = option("--duration", "BENCH_DURATION", 10);
  const idleSeconds = option("--idle", "BENCH_IDLE", 60);
  const withLighthouse = !process.argv.includes("--skip-lighthouse");
  const profile = process.argv.includes("--profile");
  // Each listener holds a socket here and one in the server (both inherit this shell's limit).
  const fileLimit = execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim();
  if (fileLimit !== "unlimited" && Number(fileLimit) < listeners + 500) {
    throw new Error(
      `The open-file limit (ulimit -n) is ${fileLimit}; ${listeners} listeners need about ${listeners + 500}. Run \`ulimit -n ${Math.max(4096, listeners * 2)}\` in this shell first, or pass --listeners ${Math.max(1, Number(fileLimit) - 500)}.`,
    );
  }
  const work = await makeTempDir("spin-bench-");
  // Run as root, the embedded PostgreSQL runs as the user postgres, which must pass through here.
  await fsp.chmod(work, 0o711);

  const appDir = await prepareProductionBuild(log);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = path.join(work, "data");
  const adminPin = String(randomInt(100_000, 1_000_000));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_PIN: adminPin,
    PUBLIC_PIN: "bench",
    SEED_CONTENT: "true",
    // Every simulated listener connects from loopback: one address holding all of them (and the
    // reconnections after the restart below) must not meet the per-address cap meant for the internet.
    REALTIME_MAX_PER_ADDRESS: String(listeners * 2),
  };
  // The embedded defaults: no external database, storage or stream.
  for (const name of ["DATABASE_URL", "S3_ENDPOINT", "S3_ACCESS_KEY", "S3_SECRET_KEY", "S3_BUCKET", "STREAM_URL", "PUBLIC_URL"]) delete env[name];
  const serverLog = path.join(work, "server.log");
  log(`starting the production server on ${url} (data in a fresh ${dataDir})`);
  const profileDir = path.join(work, "profile");
  const nodeFlags = profile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  // What `npm run serve` runs: the bundled production server.
  const startServer = () => startChild(process.execPath, [...nodeFlags, "build/server/index.js"], { cwd: appDir, env, logFile: serverLog, stdout: "log" });
  let startedAt = performance.now();
  let server = startServer();
  await waitForHealth(url, server, serverLog);
  const firstStartMs = performance.now() - startedAt;

  const listenHtml = await fetchText(`${url}/listen`);
  const episodeId = /href="\/play\/(\d+)"/.exec(listenHtml)?.[1];
  if (!episodeId) throw new Error("/listen links to no episode: was the station seeded?");
  const playPath = `/play/${episodeId}`;
  const audioPath = /"(\/media\/audio\/[^"]+)"/.exec(await fetchText(`${url}${playPath}`))?.[1];
  const audioFile = audioPath && path.join(dataDir, "files", decodeURIComponent(audioPath.slice("/media/".length)));
  if (!audioPath || !audioFile || !fs.existsSync(audioFile)) throw new Error(`${playPath} has no audio file stored under ${dataDir}/files`);
  const rangeBytes = Math.min(MEDIA_RANGE_BYTES, fs.statSync(audioFile).size);
  const rangeHeader = { Range: `bytes=0-${rangeBytes - 1}` };

  await fsp.writeFile(path.join(work, "listen.html"), listenHtml);
  const baselineProcess = startChild(process.execPath, ["--import", "tsx", "scripts/bench/baseline-server.ts", path.join(work, "listen.html"), audioFile], {
    cwd: process.cwd(),
    env: process.env,
    logFile: path.join(work, "baseline.log"),
    stdout: "pipe",
  });
  const baseline = `http://127.0.0.1:${(JSON.parse(await firstLine(baselineProcess, 30_000)) as { port: number }).port}`;

  log(`idle for ${idleSeconds} s after seeding (--idle)`);
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1_000));
  const idle = treePss(server.pid);

  heading(`SPIN RADIO benchmark · ${new Date().toISOString()} · Node ${process.version} · loopback, ${CONNECTIONS} connections, ${duration} s per run`);
  // Other work on the machine shares its cores with both servers and the load generator.
  figure(`machine: ${os.cpus().length} cores, load average (1 / 5 min)`, `${formatNumber(os.loadavg()[0], 2)} / ${formatNumber(os.loadavg()[1], 2)}`);
  figure("first start to healthy (init + migrate + seed)", ms(firstStartMs));
  if (idle) {
    figure(`idle memory, whole station (PSS, ${idle.processes} processes, ${idleSeconds} s idle)`, megabytes(idle.bytes), {
      text: "≤ 250 MB",
      met: idle.bytes <= 250 * 1024 * 1024,
    });
  } else {
    unmeasured("idle memory, whole station (PSS)", "no /proc smaps_rollup", "≤ 250 MB");
  }
  figure("server process RSS at idle", megabytes(residentBytes(server.pid)));

  const scripts = scriptUrls(listenHtml);
  const gzipped = await Promise.all(scripts.map(async (script) => gzipSync(await fetchText(new URL(script, url).href)).length));
  const jsGzip = gzipped.reduce((sum, size) => sum + size, 0);
  figure(`/listen JavaScript, gzip (${scripts.length} files)`, kilobytes(jsGzip), { text: "≤ 100 KB", met: jsGzip <= 100 * 1024 });
  // The widgets other sites load (/widgets.js, issue 34): one script, no framework.
  const widgetsGzip = gzipSync(await fetchText(`${url}/widgets.js`)).length;
  figure("/widgets.js, gzip", kilobytes(widgetsGzip), { text: "≤ 15 KB", met: widgetsGzip <= 15 * 1024 });

  heading(`Realtime: ${formatNumber(listeners)} socket.io listeners`);
  const rssBeforeListeners = residentBytes(server.pid);
  const crowd = await connectListeners(url, listeners);
  try {
    figure("listeners connected", `${formatNumber(crowd.connected)} / ${formatNumber(listeners)} in ${formatNumber(crowd.connectSeconds, 1)} s`, {
      text: `= ${formatNumber(listeners)}`,
      met: crowd.connected === listeners,
    });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssWithListeners = residentBytes(server.pid);
    figure(`server RSS with ${formatNumber(crowd.connected)} listeners`, megabytes(rssWithListeners));
    if (rssBeforeListeners !== null && rssWithListeners !== null && crowd.connected > 0) {
      const perConnection = (rssWithListeners - rssBeforeListeners) / crowd.connected;
      figure("server memory per listener (RSS delta / N)", kilobytes(perConnection), { text: "< 50 KB", met: perConnection < 50 * 1024 });
    } else {
      unmeasured("server memory per listener (RSS delta / N)", "no /proc RSS or no listener", "< 50 KB");
    }

    const cookie = await adminCookie(url, adminPin);
    const startedAt = performance.now();
    const delivered = crowd.awaitChange("embeds:changed", startedAt);
    const change = await fetch(`${url}/chartcontentadmin`, {
      method: "POST",
      headers: { Origin: url, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "add-embed", formId: "embed-form", code: BENCH_EMBED }),
      redirect: "manual",
    });
    const answeredMs = performance.now() - startedAt;
    if (change.status !== 200) throw new Error(`POST /chartcontentadmin answered ${change.status}`);
    const delays = (await delivered).sort((a, b) => a - b);
    figure("admin change (add embed): POST answered in", ms(answeredMs));
    figure("listeners that received embeds:changed", `${formatNumber(delays.length)} / ${formatNumber(crowd.connected)}`, {
      text: "all",
      met: delays.length === crowd.connected && crowd.connected > 0,
    });
    figure("delivery p50 (from the admin's POST)", ms(percentile(delays, 50)));
    const p99 = delays.length === crowd.connected ? percentile(delays, 99) : Infinity;
    figure("delivery p99 (from the admin's POST)", Number.isFinite(p99) ? ms(p99) : "not all received", { text: "< 500 ms", met: p99 < 500 });
    if (delays.length > 0) figure("fan-out: first to last listener", ms(delays[delays.length - 1] - delays[0]));
  } finally {
    crowd.close();
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));

  heading("HTTP (anonymous, no cookies)");
  let peakRss = residentBytes(server.pid);
  let peakPss = stationPss(server.pid);
  const measure = async (target: string, headers?: Record<string, string>, bodyBytes?: number, connections = CONNECTIONS) => {
    const ours = target.startsWith(url);
    const watchPid = ours ? server.pid : baselineProcess.pid;
    const sampleMemory = ours ? () => stationPss(server.pid) : undefined;
    const result = await load(target, { connections, durationSeconds: duration, headers, bodyBytes, watchPid, sampleMemory });
    if (ours && result.peakRss !== null) peakRss = Math.max(peakRss ?? 0, result.peakRss);
    if (ours && result.peakSampled !== null) peakPss = Math.max(peakPss ?? 0, result.peakSampled);
    return result;
  };
  // What each answer costs the serving process, whatever else runs on the machine.
  const cpuLine = (label: string, result: LoadResult) =>
    figure(label, result.cpuMsPerRequest === null ? "n/a" : `${formatNumber(result.cpuMsPerRequest, 3)} ms`);
  const base = await measure(`${baseline}/listen`);
  figure("baseline: bare node:http, /listen bytes from memory", rps(base.requestsPerSecond) + failures(base));
  cpuLine("baseline: CPU per request", base);
  const listen = await measure(`${url}/listen`);
  const listenRatio = listen.requestsPerSecond / base.requestsPerSecond;
  figure("/listen requests/s", rps(listen.requestsPerSecond) + failures(listen));
  figure("/listen ratio to baseline", ratio(listenRatio), { text: "≥ 0.4×", met: listenRatio >= 0.4 });
  cpuLine("/listen server CPU per request", listen);
  figure("/listen p50 latency", ms(listen.p50Ms));
  figure("/listen p99 latency", ms(listen.p99Ms), { text: "< 100 ms", met: listen.p99Ms < 100 });
  for (const page of [playPath, "/events", "/chartcontent"]) {
    const result = await measure(`${url}${page}`);
    figure(`${page} requests/s`, rps(result.requestsPerSecond) + failures(result));
    figure(`${page} p99 latency`, ms(result.p99Ms));
  }

  heading(`HTTP signed in (no page cache), ${SIGNED_IN_CONNECTIONS} connections`);
  const listenerCookies = await listenerCookie(url);
  const adminCookies = await adminCookie(url, adminPin);
  const signedIn: [string, string, string, { ratio: number; p99?: number } | null][] = [
    ["listener", "/listen", listenerCookies, { ratio: 0.05, p99: 100 }],
    ["listener", playPath, listenerCookies, null],
    ["admin", "/dashboard-admin", adminCookies, { ratio: 0.03 }],
  ];
  for (const [who, page, cookie, target] of signedIn) {
    const result = await measure(`${url}${page}`, { Cookie: cookie }, undefined, SIGNED_IN_CONNECTIONS);
    const pageRatio = result.requestsPerSecond / base.requestsPerSecond;
    figure(`${who} ${page} requests/s`, rps(result.requestsPerSecond) + failures(result));
    figure(
      `${who} ${page} ratio to baseline`,
      ratio(pageRatio),
      target ? { text: `≥ ${target.ratio}×`, met: pageRatio >= target.ratio && result.failed === 0 } : undefined,
    );
    cpuLine(`${who} ${page} server CPU per request`, result);
    figure(`${who} ${page} p50 latency`, ms(result.p50Ms));
    figure(`${who} ${page} p99 latency`, ms(result.p99Ms), target?.p99 ? { text: `< ${target.p99} ms`, met: result.p99Ms < target.p99 } : undefined);
  }

  // What the stack itself costs for a page of /listen's shape, next to the signed-in targets.
  heading(`Reference: the stack alone (Express + Remix v2 + React 18), ${SIGNED_IN_CONNECTIONS} connections`);
  const bare = await startBareRemix(work);
  try {
    const reference = await load(`${bare.url}/`, { connections: SIGNED_IN_CONNECTIONS, durationSeconds: duration, watchPid: bare.child.pid });
    // A page of /listen's shape from an in-memory loader: no database, session or middleware.
    figure("bare Remix page requests/s", rps(reference.requestsPerSecond) + failures(reference));
    figure("bare Remix page ratio to baseline", ratio(reference.requestsPerSecond / base.requestsPerSecond));
    cpuLine("bare Remix page CPU per request", reference);
    figure("bare Remix page p99 latency", ms(reference.p99Ms));
  } finally {
    bare.child.kill();
  }

  heading(`Media: ${rangeHeader.Range} of ${audioPath}`);
  const diskStream = await measure(`${baseline}/audio`, rangeHeader, rangeBytes);
  figure("baseline: fs.createReadStream", mbps(diskStream.bodyBytesPerSecond) + failures(diskStream));
  cpuLine("baseline: CPU per Range request", diskStream);
  const media = await measure(`${url}${audioPath}`, rangeHeader, rangeBytes);
  const mediaRatio = media.bodyBytesPerSecond / diskStream.bodyBytesPerSecond;
  figure("/media by Range", mbps(media.bodyBytesPerSecond) + failures(media));
  figure("/media ratio to disk streaming", ratio(mediaRatio), { text: "≥ 0.8×", met: mediaRatio >= 0.8 });
  cpuLine("/media server CPU per Range request", media);
  figure("server process RSS under load (peak)", megabytes(peakRss));
  if (peakPss !== null) figure("memory under load, whole station (PSS, peak)", megabytes(peakPss), { text: "≤ 400 MB", met: peakPss <= 400 * 1024 * 1024 });
  else unmeasured("memory under load, whole station (PSS, peak)", "no /proc smaps_rollup", "≤ 400 MB");

  heading("Start-up");
  await stopGracefully(server);
  if (profile) {
    // One profile per thread (tsx's loader runs in a worker): the main thread's is the largest.
    const files = (await fsp.readdir(profileDir).catch(() => [] as string[])).filter((f) => f.endsWith(".cpuprofile"));
    const written = files.map((f) => path.join(profileDir, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
    if (written.length === 0) {
      log("no CPU profile was written (the server did not exit cleanly)");
    } else {
      const target = path.resolve(`bench-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`);
      await fsp.copyFile(written[0]!, target);
      log(`CPU profile of the server (whole run) written to ${target}; open it in Chrome DevTools or speedscope`);
      for (const line of summariseProfile(await fsp.readFile(target, "utf8"))) log(line);
    }
  }
  startedAt = performance.now();
  server = startServer();
  await waitForHealth(url, server, serverLog);
  const restartMs = performance.now() - startedAt;
  figure("start to healthy, existing station (after build)", ms(restartMs), { text: "≤ 3,000 ms", met: restartMs <= 3_000 });

  if (!withLighthouse) {
    log("Lighthouse skipped (--skip-lighthouse)");
  } else if (!lighthouseAvailable()) {
    unmeasured("Lighthouse", "the lighthouse package is not installed (npm install)", "performance ≥ 95");
  } else {
    for (const page of ["/listen", playPath]) {
      heading(`Lighthouse ${page} (mobile)`);
      let result: LighthouseResult;
      try {
        result = await runLighthouse(`${url}${page}`, work);
      } catch (error) {
        unmeasured(`${page} Lighthouse`, (error as Error).message, "performance ≥ 95");
        continue;
      }
      const { scores, failing } = result;
      figure(`${page} performance`, String(scores.performance), { text: "≥ 95", met: scores.performance >= 95 }, failing.performance);
      figure(`${page} accessibility`, String(scores.accessibility), { text: "= 100", met: scores.accessibility === 100 }, failing.accessibility);
      figure(`${page} best practices`, String(scores.bestPractices), { text: "= 100", met: scores.bestPractices === 100 }, failing.bestPractices);
      figure(`${page} SEO`, String(scores.seo), { text: "= 100", met: scores.seo === 100 }, failing.seo);
      figure(`${page} LCP`, ms(result.lcpMs), { text: "< 1,500 ms", met: result.lcpMs < 1500 });
      figure(`${page} bytes transferred`, kilobytes(result.totalBytes));
      figure(`${page} of which JavaScript (incl. lazy chunks)`, kilobytes(result.scriptBytes));
    }
  }

  await benchProgramme(log);
  await benchRewind(log);
  await benchAudience(log);
  reportMisses();
}

function reportMisses(): void {
  const misses = missedTargets();
  heading(misses.length === 0 ? "All targets met." : `${misses.length} target(s) missed:`);
  for (const miss of misses) console.log(`  MISS ${miss}`);
}

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await cleanUp();
  }
  process.exit(code);
}
process.once("SIGINT", () => void stop(130));
process.once("SIGTERM", () => void stop(143));

try {
  await main();
  await stop(0);
} catch (error) {
  console.error(`\nbenchmark failed: ${(error as Error).message}`);
  await stop(1);
}
