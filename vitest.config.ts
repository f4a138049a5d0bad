import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    globals: true,
    include: ["tests/**/*.test.ts", "app/**/*.test.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ["tests/global-setup.ts"],
    // The JSON report is what CI counts (.ci/run prints "N passed, N failed" from it).
    reporters: ["default", "json"],
    outputFile: { json: "test-output/vitest-results.json" },
  },
});
