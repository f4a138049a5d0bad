import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { fileURLToPath } from "node:url";

// Layers, fastest first. `npm test` runs them all (as CI does); `npm run test:unit` or
// `npm run test:browser` runs one. Unit tests sit beside the code and need no server or build.
const layer = (name: string, include: string[], extra: TestProjectInlineConfiguration["test"] = {}): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, ...extra },
});
// Integration, browser and soak tests start the real server, which serves the Remix build.
const needsBuild = { globalSetup: ["tests/global-setup.ts"] };

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    globals: true,
    // Counts each file's assertions for `npm run test:count` (test-output/assertions/).
    setupFiles: ["tests/helpers/count-assertions.ts"],
    pool: "forks",
    // Most tests wait on servers, databases and browsers rather than compute: two files at a time
    // keep a 2-core machine busy without starving the timing-sensitive ones.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      // Unit and integration files mostly wait (on servers, PostgreSQL, a stand-in upstream's
      // back-off): three at a time finish sooner without loading the machine more than two browsers.
      layer("unit", ["app/**/*.test.ts"], { maxWorkers: 3 }),
      layer("integration", ["tests/*.test.ts"], { ...needsBuild, exclude: ["tests/soak.test.ts"], maxWorkers: 3 }),
      // Browsers play audio and time it: two at a time, after the integration files (a later group).
      layer("browser", ["tests/browser/**/*.test.ts"], { ...needsBuild, sequence: { groupOrder: 1 } }),
      // The soak loads the machine for two minutes: it runs alone, after the browsers.
      layer("soak", ["tests/soak.test.ts"], { ...needsBuild, sequence: { groupOrder: 2 } }),
      // The operator's stack on a real Docker engine builds images and runs containers for several
      // minutes: it runs after everything else, alone, so it starves no timing-sensitive test.
      layer("ops", ["tests/ops/**/*.test.ts"], { sequence: { groupOrder: 3 }, testTimeout: 300_000 }),
    ],
    // The JSON report is what CI counts (.ci/run prints "N passed, N failed" from it).
    reporters: ["default", "json"],
    outputFile: { json: "test-output/vitest-results.json" },
  },
});
