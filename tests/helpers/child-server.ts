import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

// The production entry point as a separate process, exactly as `npm start`
// runs it, for tests about start-up, shutdown and several instances.
export interface ChildServer {
  child: ChildProcess;
  url: string;
  output: () => string;
  stop(): Promise<number | null>;
}

// English texts, as in tests/helpers/server.ts.
const baseEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", NODE_ENV: "production", STATION_LANGUAGE: "en" } as const;

/** `nodeArgs` go to Node before the entry point (say, `--import` of a module loaded first). */
export function runServerProcess(env: Record<string, string>, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, ["--import", "tsx", ...nodeArgs, "server/index.ts"], {
    env: { ...baseEnv, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code: number | null) => resolve(code)));
  return { child, output: () => output, exit };
}

/** Starts the server and resolves once it prints its address. */
export async function startServerProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<ChildServer> {
  const { child, output, exit } = runServerProcess(env, nodeArgs);
  // A cold start on the embedded database (initdb, migrations, seeding) takes a minute on a busy 2-core machine.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const match = output().match(/on the air at (http:\/\/[^\s"]+)/);
    if (match) {
      return {
        child,
        url: match[1],
        output,
        async stop() {
          if (child.exitCode === null) child.kill("SIGTERM");
          return exit;
        },
      };
    }
    const exited = await Promise.race([exit, new Promise((r) => setTimeout(() => r("running"), 100))]);
    if (exited !== "running") throw new Error(`server exited (${exited}): ${output()}`);
  }
  child.kill("SIGKILL");
  throw new Error(`server did not start: ${output()}`);
}

/** CPU seconds (user + system) a child process has used so far, from /proc (Linux; 10 ms steps). */
export function cpuSeconds(child: ChildProcess): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the parenthesised command name.
  const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * `count` instances of one station, as behind a load balancer: each with a DATA_DIR of its own, all
 * with one session secret and the same PINs, plus `env` (the shared DATABASE_URL, storage, stream).
 * `stop()` stops them and removes their folders.
 */
export async function startStationInstances(count: number, env: Record<string, string>) {
  const dataDirs: string[] = [];
  const instances: ChildServer[] = [];
  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await Promise.all(dataDirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  };
  try {
    for (let i = 0; i < count; i++) {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-instance-"));
      dataDirs.push(dataDir);
      instances.push(
        await startServerProcess({
          PORT: "0",
          HOST: "127.0.0.1",
          DATA_DIR: dataDir,
          SESSION_SECRET: "shared-secret-for-every-instance",
          ADMIN_PIN: "123456",
          PUBLIC_PIN: "54321",
          SEED_CONTENT: "false",
          ...env,
        }),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { instances, stop };
}
