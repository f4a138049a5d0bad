/*
 * What the player bar needs to know about rewinding before anyone rewinds: the state, and a way in.
 * The rewinding itself (./rewind, and hls.js where the browser needs it) loads on the first rewind,
 * so pages whose listeners never rewind never download it (/listen's 100 KB JavaScript budget, checked by tests/browser/listener.test.ts).
 */
export interface RewindState {
  active: boolean;
  loading: boolean;
  /** Wall-clock time (ms) at the playhead, and the window's ends. */
  at: number | null;
  windowStart: number | null;
  windowEnd: number | null;
  /** The song playing at the playhead (song history), null when none is known. */
  title: string | null;
  /** The show on air now and when it started (ms), when it started within the window. */
  show: { name: string; start: number } | null;
  /** Why rewinding failed (the technical reason; the bar says the rest in the page's language). */
  error: string | null;
}

export const IDLE_REWIND: RewindState = { active: false, loading: false, at: null, windowStart: null, windowEnd: null, title: null, show: null, error: null };

let state = IDLE_REWIND;
const listeners = new Set<() => void>();

export interface RewindStore {
  subscribe(listener: () => void): () => void;
  get(): RewindState;
  set(change: Partial<RewindState>): void;
  idle: RewindState;
}

export const rewindState: RewindStore = {
  idle: IDLE_REWIND,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  get: () => state,
  set(change: Partial<RewindState>) {
    state = { ...state, ...change };
    for (const listener of listeners) listener();
  },
};

const loadRewind = () => import("./rewind").then((module) => module.getRewind(rewindState));

/** Starts rewinding `secondsBack` behind now, loading the rewinding code the first time. */
export async function startRewind(secondsBack: number) {
  rewindState.set({ ...IDLE_REWIND, active: true, loading: true });
  try {
    await (await loadRewind()).go({ secondsBack });
  } catch (error) {
    rewindState.set({ ...IDLE_REWIND, error: (error as Error).message });
  }
}

/** What the rewind controls do; they are shown only while rewinding, so the code is loaded by then. */
export const rewindActions = {
  skip: (seconds: number) => void loadRewind().then((rewind) => rewind.skip(seconds)),
  seekTo: (at: number) => void loadRewind().then((rewind) => rewind.seekTo(at)),
  backToLive: () => void loadRewind().then((rewind) => rewind.backToLive()),
};
