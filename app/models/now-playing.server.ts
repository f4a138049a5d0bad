import pg from "pg";
import type { Server as SocketServer } from "socket.io";
import { publish } from "~/services/realtime.server";
import { peekSingleton, setSingleton } from "~/services/singleton.server";
import { followIcyStream, readIcecastStatusTitle } from "~/services/stream-metadata.server";
import { recordSongChange } from "./song-history.server";

/**
 * What is on air, followed by the server (one reader for all listeners) and
 * pushed to every page as `nowplaying:changed`. With several app instances on
 * one PostgreSQL, exactly one of them (the holder of an advisory lock) follows
 * the stream; the others learn its state through the socket.io adapter.
 */
export interface NowPlaying {
  /** The stream's current title, decoded; null when it names none. */
  title: string | null;
  /** False while the stream cannot be reached (no source, server down). */
  onAir: boolean;
}

const STATE = "nowPlaying";
const TOPIC = "nowplaying:changed";
// Between instances: the follower's state, and a newcomer asking for it.
const STATE_BETWEEN_INSTANCES = "nowplaying:state";
const ASK_BETWEEN_INSTANCES = "nowplaying:ask";
// Held by the one instance that follows the stream; advisory locks are per database.
const LOCK_NAME = "spin-radio:now-playing-follower";
const LOCK_RETRY_MS = 2_000;
// While the stream is down, look again this often: a single request, and the
// listeners' players reconnect as soon as it is back on air.
const RECONNECT_MS = [250, 500, 1_000];
const DEMO_POLL_MS = 1_000;
// In-band titles arrive every icy-metaint bytes (2 s at 64 kbit/s); Icecast's status is asked this often.
const STATUS_POLL_MS = 1_000;

/** The current state, for a page's first render. */
export function getNowPlaying(): NowPlaying {
  return peekSingleton<NowPlaying>(STATE) ?? { title: null, onAir: true };
}

function store(next: NowPlaying): boolean {
  const current = peekSingleton<NowPlaying>(STATE);
  if (current && current.title === next.title && current.onAir === next.onAir) return false;
  setSingleton(STATE, next);
  return true;
}

export interface FollowerOptions {
  /** The operator's stream; null means the built-in demo stream. */
  streamUrl: string | null;
  /** The in-process demo stream (when streamUrl is null). */
  demo?: { nowPlaying(): string } | null;
  io: SocketServer;
  /** Set when several instances share this PostgreSQL: only the lock holder follows. */
  sharedDatabaseUrl?: string | null;
  /** Made for each stretch this instance follows the stream, fed its audio (the rewind recorder). */
  createRecorder?: (() => { audio(bytes: Uint8Array): void; interrupted(): void; close(): Promise<void> }) | null;
  log?: (line: string) => void;
}

/** Waits `ms`, or less when `signal` aborts; leaves no listener behind (it runs every second for days). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });

/** Starts following the station's stream; returns the stop function. */
export function startNowPlayingFollower(options: FollowerOptions): () => Promise<void> {
  const { io, log = () => {} } = options;
  const stopping = new AbortController();
  const shared = Boolean(options.sharedDatabaseUrl && options.streamUrl);
  let leading = !shared;
  setSingleton(STATE, undefined);

  const announce = (next: NowPlaying) => {
    const previousTitle = getNowPlaying().title;
    if (!store(next)) return;
    // Only the follower gets here, so each title change is recorded once, whatever the instances.
    // The built-in demo stream's titles are not songs the station played: they stay out of the history.
    if (options.streamUrl && next.title && next.title !== previousTitle) {
      recordSongChange({ title: next.title, at: new Date() }).catch((error: Error) => log(`song history: could not record "${next.title}": ${error.message}`));
    }
    if (shared) io.serverSideEmit(STATE_BETWEEN_INSTANCES, next);
    // publish() also tells every instance's page cache that pages changed (the first render shows the title).
    publish(TOPIC, { action: "updated", records: [next] });
  };

  const heardState = (state: NowPlaying) => {
    if (!leading) store(state);
  };
  const heardAsk = () => {
    const state = peekSingleton<NowPlaying>(STATE);
    if (leading && state) io.serverSideEmit(STATE_BETWEEN_INSTANCES, state);
  };
  if (shared) {
    io.on(STATE_BETWEEN_INSTANCES, heardState);
    io.on(ASK_BETWEEN_INSTANCES, heardAsk);
  }

  const followStream = async (url: string, signal: AbortSignal) => {
    // Only the follower records, so exactly one instance does.
    const recorder = options.createRecorder?.() ?? null;
    try {
      await followStreamInto(url, signal, recorder);
    } finally {
      await recorder?.close();
    }
  };

  const followStreamInto = async (url: string, signal: AbortSignal, recorder: { audio(bytes: Uint8Array): void; interrupted(): void } | null) => {
    let failures = 0;
    let title: string | null = getNowPlaying().title;
    let connected = false;
    // Icecast's status-json.xsl, when reachable, names the title first; in-band titles are the fallback.
    let statusKnowsTitle = false;
    let wake = () => {};
    const pollStatus = async () => {
      while (!signal.aborted) {
        const status = await readIcecastStatusTitle(url, signal);
        statusKnowsTitle = status.found;
        // Icecast lists the mount again while we wait to reconnect: go now, listeners are waiting.
        if (status.found && !connected) wake();
        if (status.found && connected && status.title !== title) {
          title = status.title;
          announce({ title, onAir: true });
        }
        await sleep(STATUS_POLL_MS, signal);
      }
    };
    const polling = pollStatus();
    while (!signal.aborted) {
      const why = await followIcyStream(
        url,
        {
          onConnected() {
            failures = 0;
            connected = true;
          },
          onTitle(next) {
            if (!statusKnowsTitle) title = next;
            announce({ title, onAir: true });
          },
          onAudio: recorder ? (bytes) => recorder.audio(bytes) : undefined,
        },
        signal,
      );
      connected = false;
      recorder?.interrupted();
      if (signal.aborted) break;
      if (failures === 0) log(`Live stream unreachable (${why}); following it again when it is back`);
      // The last title stays known; the bar says the stream is down.
      announce({ title, onAir: false });
      const woken = new AbortController();
      wake = () => woken.abort();
      await sleep(RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)], AbortSignal.any([signal, woken.signal]));
      wake = () => {};
      failures += 1;
    }
    await polling;
  };

  const followDemo = async (demo: { nowPlaying(): string }, signal: AbortSignal) => {
    while (!signal.aborted) {
      announce({ title: demo.nowPlaying(), onAir: true });
      await sleep(DEMO_POLL_MS, signal);
    }
  };

  const follow = (signal: AbortSignal) =>
    options.streamUrl ? followStream(options.streamUrl, signal) : options.demo ? followDemo(options.demo, signal) : Promise.resolve();

  const running = shared
    ? leadFromOneInstance(options.sharedDatabaseUrl!, follow, (value) => (leading = value), stopping.signal, log)
    : follow(stopping.signal);
  if (shared) io.serverSideEmit(ASK_BETWEEN_INSTANCES);

  return async () => {
    stopping.abort();
    await running.catch(() => {});
    io.off(STATE_BETWEEN_INSTANCES, heardState);
    io.off(ASK_BETWEEN_INSTANCES, heardAsk);
  };
}

/**
 * Runs `follow` on exactly one instance: whoever holds the advisory lock. The lock
 * lives with a database session, so a crashed or partitioned leader loses it and
 * another instance takes over within LOCK_RETRY_MS.
 */
async function leadFromOneInstance(
  databaseUrl: string,
  follow: (signal: AbortSignal) => Promise<void>,
  setLeading: (leading: boolean) => void,
  stopping: AbortSignal,
  log: (line: string) => void,
): Promise<void> {
  while (!stopping.aborted) {
    const client = new pg.Client({ connectionString: databaseUrl });
    const lost = new AbortController();
    client.on("error", () => lost.abort());
    client.on("end", () => lost.abort());
    try {
      await client.connect();
      const both = AbortSignal.any([stopping, lost.signal]);
      let held = false;
      while (!held && !stopping.aborted && !lost.signal.aborted) {
        const { rows } = await client.query<{ held: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS held", [LOCK_NAME]);
        held = rows[0]?.held === true;
        if (!held) await sleep(LOCK_RETRY_MS, both);
      }
      if (held) {
        setLeading(true);
        log("This instance follows the live stream's now-playing");
        // Notice a dropped database session even when no query is running.
        const heartbeat = setInterval(() => client.query("SELECT 1").catch(() => lost.abort()), 5_000);
        try {
          await follow(both);
        } finally {
          clearInterval(heartbeat);
          setLeading(false);
        }
      }
    } catch {
      // The database is unreachable: try again below.
    } finally {
      await client.end().catch(() => {});
    }
    await sleep(LOCK_RETRY_MS, stopping);
  }
}
