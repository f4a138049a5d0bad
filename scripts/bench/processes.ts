import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = process.cwd();
// What the server needs from the checkout besides its build (linked into the snapshot).
const LINKED = ["node_modules", "app", "server", "prisma", "tsconfig.json", "package.json", "remix.config.js"];

/** Every child process the benchmark started, so one call can stop them all (also on Ctrl-C). */
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await fsp.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, (await fsp.stat(path.join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

// A bundle built with NODE_ENV other than production calls React's jsxDEV, which the
// production runtime does not have: every page would answer 500.
async function buildProblem(): Promise<string | null> {
  const serverBuild = path.join(ROOT, "build/index.js");
  if (!fs.existsSync(serverBuild)) return "no build yet";
  if ((await fsp.stat(serverBuild)).mtimeMs < (await newestMtime(path.join(ROOT, "app")))) return "app/ changed since the last build";
  if ((await fsp.readFile(serverBuild, "utf8")).includes("jsxDEV")) return "the build is a development build";
  // The production server itself is bundled too (npm run build:server), from server/ and app/.
  const serverBundle = path.join(ROOT, "build/server/index.js");
  if (!fs.existsSync(serverBundle)) return "no server bundle yet";
  const sources = Math.max(await newestMtime(path.join(ROOT, "app")), await newestMtime(path.join(ROOT, "server")));
  if ((await fsp.stat(serverBundle)).mtimeMs < sources) return "server/ or app/ changed since the server was bundled";
  return null;
}

async function remixBuild(reason: string, log: (line: string) => void): Promise<void> {
  log(`building (${reason}): npm run build`);
  await run("npm", ["run", "build"], { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" }, timeout: 180_000 });
}

/**
 * Builds when needed, then copies the build into a private folder the server runs from,
 * so a rebuild in the checkout during the run (npm run dev, a test run) cannot change
 * what is being measured. Returns that folder.
 */
export async function prepareProductionBuild(log: (line: string) => void): Promise<string> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const problem = await buildProblem();
    if (problem) await remixBuild(problem, log);
    const snapshot = await makeTempDir("spin-bench-app-");
    for (const name of LINKED) await fsp.symlink(path.join(ROOT, name), path.join(snapshot, name));
    await fsp.mkdir(path.join(snapshot, "public"));
    for (const name of await fsp.readdir(path.join(ROOT, "public"))) {
      if (name !== "build") await fsp.symlink(path.join(ROOT, "public", name), path.join(snapshot, "public", name));
    }
    await fsp.cp(path.join(ROOT, "build"), path.join(snapshot, "build"), { recursive: true });
    await fsp.cp(path.join(ROOT, "public/build"), path.join(snapshot, "public/build"), { recursive: true });
    // The server bundle and the browser assets must come from the same build.
    const version = (await fsp.readFile(path.join(snapshot, "build/version.txt"), "utf8")).trim().toUpperCase();
    const consistent =
      fs.existsSync(path.join(snapshot, `public/build/manifest-${version}.js`)) &&
      !(await fsp.readFile(path.join(snapshot, "build/index.js"), "utf8")).includes("jsxDEV");
    if (consistent) return snapshot;
    log(`the build changed while it was copied (attempt ${attempt}); building again`);
    await remixBuild("inconsistent copy", log);
  }
  throw new Error("Could not get a consistent production build (is something rebuilding the checkout continuously?)");
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a child in its own process group (so stopping it also stops anything it started). */
export function startChild(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string; stdout?: "pipe" | "log" },
): ChildProcess {
  const log = fs.openSync(options.logFile, "a");
  const stdout = options.stdout === "pipe" ? "pipe" : log;
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", stdout, log] });
  fs.closeSync(log);
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** The first line a child prints on stdout, within `timeoutMs`. */
export function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error("child printed nothing in time")), timeoutMs);
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const newline = buffered.indexOf("\n");
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(buffered.slice(0, newline));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited with code ${code}`));
    });
  });
}

/** Resident memory of a process in bytes (Linux /proc), or null where that is not available. */
export function residentBytes(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

// Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every common platform.
const TICK_MS = 10;

/** CPU time (user + system) a process has used so far, in ms, or null where /proc is not available. */
export function cpuMilliseconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const kill = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      clearTimeout(kill);
      resolve();
    }
  });
}

/** Stops every child (SIGTERM, SIGKILL after a grace period) and removes the temporary folders. */
export async function cleanUp(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, 10_000)));
  for (const dir of tempDirs) await fsp.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  tempDirs.clear();
}

/** `pid` and every process below it (the embedded PostgreSQL server and its backends), from /proc. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    tree.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

/**
 * Proportional set size of a process and everything it started, in bytes: shared pages
 * (PostgreSQL's shared buffers, libraries) count once across the processes sharing them,
 * unlike RSS summed over processes. Null where /proc has no smaps_rollup.
 */
export function treePss(pid: number | undefined): { bytes: number; processes: number } | null {
  if (!pid) return null;
  let bytes = 0;
  let processes = 0;
  for (const member of processTree(pid)) {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${member}/smaps_rollup`, "utf8"));
      if (!match) continue;
      bytes += Number(match[1]) * 1024;
      processes++;
    } catch {
      // gone meanwhile, or not readable
    }
  }
  return processes > 0 ? { bytes, processes } : null;
}

/** Waits for a child to exit after SIGTERM to its process group (a graceful stop). */
export function stopGracefully(child: ChildProcess, graceMs = 30_000): Promise<void> {
  return stopChild(child, graceMs);
}
