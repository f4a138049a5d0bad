// Ad-hoc: profile one page under load (not part of the committed bench).
import { spawn } from "node:child_process";
import fs from "node:fs";
import autocannon from "autocannon";
import { summariseProfile } from "./profile";
import { cpuMilliseconds, processTree, treePss } from "./processes";

const [dataDir, page, who = "listener", seconds = "10"] = process.argv.slice(2);
const profDir = `/tmp/prof/${Date.now()}`;
const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profDir}`, "--import", "tsx", "server/index.ts"], {
  env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_PIN: "123456", PUBLIC_PIN: "bench" },
  stdio: ["ignore", "pipe", "inherit"],
});
let out = "";
const url: string = await new Promise((resolve) => child.stdout!.on("data", (c) => { out += c; const m = /on the air at (http:\S+)/.exec(out); if (m) resolve(m[1]!.replace("localhost", "127.0.0.1")); }));
const post = (p: string, f: Record<string, string>) => fetch(url + p, { method: "POST", headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(f), redirect: "manual" });
let cookie = "";
if (who === "listener") {
  const email = `p${Date.now()}@example.com`;
  await post("/register", { name: "P", email, password: "password-123456", conPassword: "password-123456" });
  cookie = (await post("/login", { email, password: "password-123456" })).headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
} else if (who === "admin") {
  cookie = (await post("/pin", { kind: "admin", pin: "123456", redirectTo: "/dashboard-admin" })).headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}
const first = await fetch(url + page, { headers: { Cookie: cookie } });
const body = await first.text();
console.log(`${page} ${first.status} ${body.length} bytes html; encoding ${first.headers.get("content-encoding")}`);
await autocannon({ url: url + page, connections: 20, duration: 2, headers: { Cookie: cookie } });
const cpu = () => processTree(child.pid!).map((pid) => cpuMilliseconds(pid) ?? 0);
const nodeBefore = cpuMilliseconds(child.pid)!; const allBefore = cpu().reduce((a, b) => a + b, 0);
const r = await autocannon({ url: url + page, connections: 20, duration: Number(seconds), headers: { Cookie: cookie } });
const nodeMs = cpuMilliseconds(child.pid)! - nodeBefore; const allMs = cpu().reduce((a, b) => a + b, 0) - allBefore;
console.log(`cpu/request: node ${(nodeMs / r.requests.total).toFixed(2)} ms, node+postgres ${(allMs / r.requests.total).toFixed(2)} ms over ${r.requests.total} requests`);
console.log(`req/s ${r.requests.average} p50 ${r.latency.p50} p99 ${r.latency.p99} non2xx ${r.non2xx} errors ${r.errors}`);
console.log(`pss ${(treePss(child.pid)!.bytes / 1048576).toFixed(1)} MB in ${treePss(child.pid)!.processes} processes`);
child.kill("SIGTERM");
await new Promise((r) => child.on("exit", r));
const file = fs.readdirSync(profDir).sort((a, b) => fs.statSync(`${profDir}/${b}`).size - fs.statSync(`${profDir}/${a}`).size)[0]!;
for (const line of summariseProfile(fs.readFileSync(`${profDir}/${file}`, "utf8"), 25)) console.log(line);
