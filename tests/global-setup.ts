import { execFileSync } from "node:child_process";

// Integration and browser tests start the real server, which serves the Remix
// build: build it once per test run so tests never see a stale bundle.
export default function setup() {
  execFileSync("npx", ["remix", "build"], { stdio: "pipe" });
}
