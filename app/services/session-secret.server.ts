import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * SESSION_SECRET when set; otherwise a random secret generated on first start
 * and kept under DATA_DIR, so sessions survive restarts without configuration.
 */
export async function resolveSessionSecret(configured: string | null, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, "session-secret");
  try {
    const stored = (await fs.readFile(file, "utf8")).trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = randomBytes(32).toString("hex");
  await fs.writeFile(file, secret + "\n", { mode: 0o600 });
  return secret;
}
