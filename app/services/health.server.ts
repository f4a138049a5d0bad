import { db } from "./db.server";
import { getStorage } from "./storage.server";

export interface ComponentHealth {
  ok: boolean;
  error?: string;
}

export interface Health {
  ok: boolean;
  database: ComponentHealth;
  storage: ComponentHealth & { kind: string };
}

async function probe(check: () => Promise<unknown>, timeoutMs: number): Promise<ComponentHealth> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** What /healthz reports: every dependency the pages need, each with its own state. */
export async function checkHealth(timeoutMs = 3_000): Promise<Health> {
  const storage = getStorage();
  const [database, storageHealth] = await Promise.all([probe(() => db().$queryRaw`SELECT 1`, timeoutMs), probe(() => storage.check(), timeoutMs)]);
  return { ok: database.ok && storageHealth.ok, database, storage: { kind: storage.kind, ...storageHealth } };
}

/** The same report with each component's error text left out (what anonymous callers get). */
export function withoutErrorTexts(health: Health): Health {
  return {
    ok: health.ok,
    database: { ok: health.database.ok },
    storage: { kind: health.storage.kind, ok: health.storage.ok },
  };
}
