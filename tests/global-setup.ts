import { execFileSync } from "node:child_process";

// Integration and browser tests start the real server, which serves the Remix
// build: build it once per test run (as production, whatever NODE_ENV vitest
// set) so tests never see a stale or development bundle.
export default function setup() {
  execFileSync("npx", ["remix", "build"], { stdio: "pipe", env: { ...process.env, NODE_ENV: "production" } });
}
