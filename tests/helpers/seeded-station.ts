import os from "node:os";
import path from "node:path";

/** Where a test run keeps its seeded station (built by tests/helpers/server.ts, removed by tests/global-setup.ts). */
export function seededTemplateNames(runId: string): { database: string; dataDir: string } {
  return { database: `spin_seed_${runId}`, dataDir: path.join(os.tmpdir(), `spin-seed-${runId}`) };
}
