// A reference point for the signed-in figures: the same stack (Express, Remix v2, React 18, this
// repository's node_modules) serving one page of /listen's shape with nothing of the station in
// it. Its ratio to bare node:http is what a page that size costs before any of our code runs.
import { execFile } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import fsp from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { firstLine, startChild } from "./processes";

const FIXTURE = path.resolve("scripts/bench/bare-remix-app");
const REMIX_CLI = path.resolve("node_modules/@remix-run/dev/dist/cli.js");

/** Builds the reference app in `workDir` (never in the checkout) with the station's Remix config and starts it. */
export async function startBareRemix(workDir: string): Promise<{ url: string; child: ChildProcess }> {
  const appDir = path.join(workDir, "bare-remix");
  await fsp.cp(FIXTURE, appDir, { recursive: true });
  await fsp.symlink(path.resolve("node_modules"), path.join(appDir, "node_modules"));
  // The station's own future flags, so the reference runs the same Remix code paths.
  const { default: station } = (await import(pathToFileURL(path.resolve("remix.config.js")).href)) as { default: { future: Record<string, boolean> } };
  const config = { serverModuleFormat: "esm", serverPlatform: "node", future: station.future };
  await fsp.writeFile(path.join(appDir, "remix.config.js"), `export default ${JSON.stringify(config)};\n`);
  await promisify(execFile)(process.execPath, [REMIX_CLI, "build"], { cwd: appDir, env: { ...process.env, NODE_ENV: "production" } });
  const child = startChild(process.execPath, ["server.mjs"], {
    cwd: appDir,
    env: { ...process.env, NODE_ENV: "production" },
    logFile: path.join(workDir, "bare-remix.log"),
    stdout: "pipe",
  });
  const { port } = JSON.parse(await firstLine(child, 30_000)) as { port: number };
  return { url: `http://127.0.0.1:${port}`, child };
}
