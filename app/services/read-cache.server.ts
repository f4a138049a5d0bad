import { onContentChanged } from "./realtime.server";
import { singleton } from "./singleton.server";

/*
 * Reads that nearly every page makes and only an admin (or the stream follower) changes: the crew
 * slider, the jumbotron, the chart players, the newest episodes, the recent songs. Each database
 * query costs a page view far more CPU than the rows it returns (a round trip through the kernel
 * and the Prisma client), so these are kept in this process until anything may have changed them:
 * - any statement other than a SELECT through this process's database pool (db.server.ts), when
 *   it is sent and again when it is done, so a read racing a write is never kept;
 * - any change another instance announces (the realtime channel's content event);
 * - MAX_AGE_MS, for what changes without a write: a scheduled episode reaching its publication time,
 *   or a tool writing to the database from outside this process.
 */
const MAX_AGE_MS = 5_000;
// Keys can come from a URL (an episode id): a full cache starts over rather than grow.
const MAX_ENTRIES = 1_000;

interface Entry {
  value: Promise<unknown>;
  storedAt: number;
}

interface State {
  entries: Map<string, Entry>;
  generation: number;
  subscribed: boolean;
}

const state = () => singleton<State>("readCache", () => ({ entries: new Map(), generation: 0, subscribed: false }));

/** Forgets every kept read (called for every write and every announced change). */
export function forgetCachedReads(): void {
  const current = state();
  current.generation += 1;
  if (current.entries.size > 0) current.entries.clear();
}

/** `load()`'s result, shared by every caller until something may have changed it (see above). */
export function cachedRead<T>(key: string, load: () => Promise<T>): Promise<T> {
  const current = state();
  if (!current.subscribed) {
    current.subscribed = true;
    onContentChanged(forgetCachedReads);
  }
  const now = Date.now();
  const kept = current.entries.get(key);
  if (kept && now - kept.storedAt < MAX_AGE_MS) return kept.value as Promise<T>;
  const startedAt = current.generation;
  const value = load().then(
    (result) => {
      // Something was written while this read ran: the result may predate it.
      if (current.generation !== startedAt && current.entries.get(key)?.value === value) current.entries.delete(key);
      return result;
    },
    (error: unknown) => {
      if (current.entries.get(key)?.value === value) current.entries.delete(key);
      throw error;
    },
  );
  if (current.entries.size >= MAX_ENTRIES) current.entries.clear();
  current.entries.set(key, { value, storedAt: now });
  return value;
}
