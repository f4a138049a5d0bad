import type { Server as SocketServer } from "socket.io";
import { leadFromOneInstance, sleep } from "~/services/leadership.server";
import { push } from "~/services/realtime.server";
import { peekSingleton, setSingleton, singleton } from "~/services/singleton.server";
import { cleanStreamTitle, followIcyStream, readIcecastStatusTitle } from "~/services/stream-metadata.server";
import { readDemoRegistry } from "./demo-content.server";
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
// While the stream is down, look again this often: a single request, and the
// listeners' players reconnect as soon as it is back on air.
const RECONNECT_MS = [250, 500, 1_000];
const DEMO_POLL_MS = 1_000;
// How often the demo follower looks whether the station still shows the demo content.
const DEMO_CONTENT_CHECK_MS = 10_000;
// In-band titles arrive every icy-metaint bytes (2 s at 64 kbit/s); Icecast's status is asked this often.
const STATUS_POLL_MS = 1_000;
// An upstream that breaks a rule (answers too big or too fast, malformed, redirected elsewhere) is
// asked again only after these waits, longer each time until it behaves.
const STATUS_BACKOFF_MS = [2_000, 5_000, 15_000, 30_000, 60_000];
const MISBEHAVED_RECONNECT_MS = [5_000, 15_000, 30_000, 60_000];
// At most one change is recorded and pushed per CHANGE_EVERY_MS; changes within it wait for its
// end and the last one wins. A source that changes its title more than FLOOD_CHANGES times within
// one wait makes the next wait twice as long (up to FLOOD_MAX_MS), until it calms down.
const CHANGE_EVERY_MS = 3_000;
const FLOOD_CHANGES = 5;
const FLOOD_MAX_MS = 60_000;

/** The current state, for a page's first render. */
export function getNowPlaying(): NowPlaying {
  return peekSingleton<NowPlaying>(STATE) ?? { title: null, onAir: true };
}

function store(next: NowPlaying): boolean {
  const current = peekSingleton<NowPlaying>(STATE);
  if (current && current.title === next.title && current.onAir === next.onAir) return false;
  setSingleton(STATE, next);
  for (const listener of changeListeners()) listener(next);
  return true;
}

const changeListeners = () => singleton("nowPlayingListeners", () => new Set<(state: NowPlaying) => void>());

/**
 * Runs `listener` with each new state this instance stores: the follower's own and, on the other
 * instances, the one it shares with them (the widgets' event stream follows it). Returns the unsubscribe function.
 */
export function onNowPlayingChanged(listener: (state: NowPlaying) => void): () => void {
  changeListeners().add(listener);
  return () => changeListeners().delete(listener);
}

export interface FollowerOptions {
  /** The operator's stream; null means the built-in demo stream. */
  streamUrl: string | null;
  /** The in-process demo stream (when streamUrl is null); `tap` feeds its audio to the recorder. */
  demo?: { nowPlaying(): string; tap?(onAudio: (bytes: Buffer) => void): () => void } | null;
  io: SocketServer;
  /** Set when several instances share this PostgreSQL: only the lock holder follows. */
  sharedDatabaseUrl?: string | null;
  /** Made for each stretch this instance follows the stream, fed its audio (the rewind recorder). */
  createRecorder?: (() => { audio(bytes: Uint8Array): void; interrupted(): void; close(): Promise<void> }) | null;
  /** Other work for the one leading instance (the audience's Icecast poll), run while it follows. */
  whileLeading?: ((signal: AbortSignal) => Promise<void>) | null;
  log?: (line: string) => void;
}

/** Starts following the station's stream; returns the stop function. */
export function startNowPlayingFollower(options: FollowerOptions): () => Promise<void> {
  const { io, log = () => {} } = options;
  const stopping = new AbortController();
  // The demo stream plays on one clock on every instance, so it too is followed (and recorded) by one.
  const shared = Boolean(options.sharedDatabaseUrl && (options.streamUrl || options.demo));
  let leading = !shared;
  // True while the demo stream is followed and the station shows the demo content (see followDemo).
  let recordingDemo = false;
  setSingleton(STATE, undefined);

  // Coalescing (see CHANGE_EVERY_MS): what is waiting to go out, when the last change went out,
  // how long the current wait is, and how many different states arrived during it.
  let pending: NowPlaying | null = null;
  let lastHeard: NowPlaying | null = null;
  let sentAt = -Infinity;
  let interval = CHANGE_EVERY_MS;
  let heardSinceSent = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerDueAt = 0;

  const send = () => {
    clearTimeout(timer);
    timer = undefined;
    const next = pending;
    pending = null;
    if (!next || stopping.signal.aborted) return;
    const previousTitle = getNowPlaying().title;
    if (!store(next)) return;
    interval = heardSinceSent > FLOOD_CHANGES ? Math.min(interval * 2, FLOOD_MAX_MS) : CHANGE_EVERY_MS;
    if (interval > CHANGE_EVERY_MS && heardSinceSent > FLOOD_CHANGES)
      log(`Now playing: the stream changed its title ${heardSinceSent} times within seconds; taking one every ${interval / 1000} s`);
    heardSinceSent = 0;
    sentAt = Date.now();
    // Only the follower gets here, so each title change is recorded once, whatever the instances.
    // The built-in demo stream's programme is recorded too while the station shows the demo content:
    // a new station's history fills as a real one's, and an emptied station stays empty.
    if ((options.streamUrl || recordingDemo) && next.title && next.title !== previousTitle) {
      recordSongChange({ title: next.title, at: new Date() }).catch((error: Error) => log(`song history: could not record "${next.title}": ${error.message}`));
    }
    if (shared) io.serverSideEmit(STATE_BETWEEN_INSTANCES, next);
    // Pushed only: kept pages are not forgotten for it. A page's HTML may name an older title; the
    // player bar takes the current one from this push or asks /now-playing when its socket connects.
    push(TOPIC, { action: "updated", records: [next] });
  };

  // Every state the stream reports comes here (in-band titles with each metadata block, the status
  // every second): unchanged ones cost nothing, changes go out at most once per interval, the last wins.
  const announce = (next: NowPlaying) => {
    if (lastHeard?.title !== next.title || lastHeard?.onAir !== next.onAir) heardSinceSent += 1;
    lastHeard = next;
    const current = peekSingleton<NowPlaying>(STATE);
    pending = next;
    // Going off or on air is not held back by a flood of titles: the bar says so within the normal wait.
    const wait = current && current.onAir !== next.onAir ? CHANGE_EVERY_MS : interval;
    const dueAt = Math.max(Date.now(), sentAt + wait);
    if (timer !== undefined && timerDueAt <= dueAt) return;
    clearTimeout(timer);
    timer = undefined;
    if (dueAt <= Date.now()) return send();
    timerDueAt = dueAt;
    timer = setTimeout(send, dueAt - Date.now());
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
      let misbehaved = 0;
      while (!signal.aborted) {
        const status = await readIcecastStatusTitle(url, signal);
        statusKnowsTitle = status.found;
        // Icecast lists the mount again while we wait to reconnect: go now, listeners are waiting.
        if (status.found && !connected) wake();
        if (status.found && connected && status.title !== title) {
          title = status.title;
          announce({ title, onAir: true });
        }
        if (!status.found && status.misbehaved) {
          if (misbehaved === 0) log(`Icecast status: ${status.misbehaved}; asking less often until it behaves`);
          misbehaved += 1;
        } else misbehaved = 0;
        await sleep(misbehaved > 0 ? STATUS_BACKOFF_MS[Math.min(misbehaved - 1, STATUS_BACKOFF_MS.length - 1)] : STATUS_POLL_MS, signal);
      }
    };
    const polling = pollStatus();
    let misbehaved = 0;
    while (!signal.aborted) {
      const end = await followIcyStream(
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
      if (failures === 0) log(`Live stream unreachable (${end.reason}); following it again when it is back`);
      // The last title stays known; the bar says the stream is down.
      announce({ title, onAir: false });
      misbehaved = end.misbehaved ? misbehaved + 1 : 0;
      if (misbehaved > 0) {
        // Not woken by the status: the stream itself broke a rule.
        await sleep(MISBEHAVED_RECONNECT_MS[Math.min(misbehaved - 1, MISBEHAVED_RECONNECT_MS.length - 1)], signal);
      } else {
        const woken = new AbortController();
        wake = () => woken.abort();
        await sleep(RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)], AbortSignal.any([signal, woken.signal]));
        wake = () => {};
      }
      failures += 1;
    }
    await polling;
  };

  // While the station shows the demo content (demo-content.server.ts), the demo stream is recorded like an
  // operator's (song history, rewind, show archives); once an admin removed it, nothing of it is kept.
  const followDemo = async (demo: NonNullable<FollowerOptions["demo"]>, signal: AbortSignal) => {
    let recorder: ReturnType<NonNullable<FollowerOptions["createRecorder"]>> | null = null;
    let untap = () => {};
    const stopRecording = async () => {
      untap();
      untap = () => {};
      const stopped = recorder;
      recorder = null;
      await stopped?.close();
    };
    let checkedAt = -Infinity;
    try {
      while (!signal.aborted) {
        if (Date.now() - checkedAt >= DEMO_CONTENT_CHECK_MS) {
          checkedAt = Date.now();
          // The database unreachable for a moment: keep doing what we did.
          recordingDemo = await readDemoRegistry().then(
            (registry) => registry !== null,
            () => recordingDemo,
          );
          if (recordingDemo && !recorder && demo.tap) {
            const started = options.createRecorder?.() ?? null;
            recorder = started;
            if (started) untap = demo.tap((bytes) => started.audio(bytes));
          } else if (!recordingDemo && recorder) await stopRecording();
        }
        announce({ title: cleanStreamTitle(demo.nowPlaying()) || null, onAir: true });
        await sleep(DEMO_POLL_MS, signal);
      }
    } finally {
      await stopRecording();
    }
  };

  const followTitles = (signal: AbortSignal) =>
    options.streamUrl ? followStream(options.streamUrl, signal) : options.demo ? followDemo(options.demo, signal) : Promise.resolve();
  const follow = async (signal: AbortSignal) => {
    await Promise.all([followTitles(signal), options.whileLeading?.(signal)]);
  };

  const running = shared
    ? leadFromOneInstance(
        options.sharedDatabaseUrl!,
        LOCK_NAME,
        follow,
        (value) => {
          leading = value;
          if (value) log("This instance follows the live stream's now-playing");
        },
        stopping.signal,
      )
    : follow(stopping.signal);
  if (shared) io.serverSideEmit(ASK_BETWEEN_INSTANCES);

  return async () => {
    stopping.abort();
    clearTimeout(timer);
    await running.catch(() => {});
    io.off(STATE_BETWEEN_INSTANCES, heardState);
    io.off(ASK_BETWEEN_INSTANCES, heardAsk);
  };
}
