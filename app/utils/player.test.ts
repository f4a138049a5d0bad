// The live half of the player as a state machine: a fake <audio> element, fake timers and a fake
// network, so every drop, backoff and recovery is checked in milliseconds (the browser tests keep
// one real stream for what only a browser shows).
import type { Player } from "./player";

class FakeAudio extends EventTarget {
  currentTime = 0;
  playbackRate = 1;
  private attributes = new Map<string, string>();
  play = vi.fn(() => Promise.resolve());
  pause = vi.fn();
  load = vi.fn();
  set src(value: string) {
    this.attributes.set("src", value);
  }
  get src() {
    return this.attributes.get("src") ?? "";
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  removeAttribute(name: string) {
    this.attributes.delete(name);
  }
  fire(type: string) {
    this.dispatchEvent(new Event(type));
  }
}

let player: Player;
let live: FakeAudio;
let network: { onLine: boolean };
let page: EventTarget;
let detach: () => void;

beforeEach(async () => {
  vi.useFakeTimers({ now: new Date("2026-11-26T08:00:00Z") });
  vi.spyOn(Math, "random").mockReturnValue(0.5); // no jitter: the waits below are exact
  network = { onLine: true };
  page = new EventTarget();
  vi.stubGlobal("navigator", network);
  vi.stubGlobal("window", Object.assign(page, { localStorage: new Map() }));
  vi.stubGlobal("BroadcastChannel", undefined);
  vi.resetModules();
  const { getPlayer } = await import("./player");
  player = getPlayer();
  live = new FakeAudio();
  detach = player.attach(live as unknown as HTMLAudioElement, new FakeAudio() as unknown as HTMLAudioElement, {
    signedIn: false,
    nowPlaying: { title: "Band Kampus - Lagu Pagi", onAir: true },
  });
});

afterEach(() => {
  detach();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const status = () => player.getState().live.status;

/** The stream plays on for `seconds`: its audio time moves each second, as the watchdog expects. */
async function playOn(seconds: number) {
  for (let second = 0; second < seconds; second += 1) {
    live.currentTime += 1;
    await vi.advanceTimersByTimeAsync(1_000);
  }
}

describe("reconnectDelay", () => {
  it("waits 1 s, 1 s, 2 s, 4 s … and never more than 30 s", async () => {
    const { reconnectDelay } = await import("./player");
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map(reconnectDelay)).toEqual([1000, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("spreads listeners by ±20 % so they do not reconnect in lockstep", async () => {
    const { reconnectDelay } = await import("./player");
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(reconnectDelay(3)).toBe(3200);
    vi.spyOn(Math, "random").mockReturnValue(0.999999);
    expect(reconnectDelay(3)).toBe(4800);
    expect(reconnectDelay(50)).toBe(36000);
  });
});

describe("the live stream", () => {
  it("connects to a fresh URL of the stream and plays once the element says so", () => {
    player.playLive();
    expect(status()).toBe("connecting");
    expect(live.src).toMatch(/^\/stream\/live\?listen=[0-9a-z]+$/);
    expect(live.play).toHaveBeenCalledTimes(1);
    live.fire("playing");
    expect(player.getState().live).toMatchObject({ status: "playing", retryAt: null, back: false });
  });

  it("reconnects after a drop with the backoff, and says it is back on air for a moment", async () => {
    player.playLive();
    live.fire("playing");
    live.fire("error");
    expect(status()).toBe("reconnecting");
    expect(player.getState().live.retryAt).toBe(Date.now() + 1000);
    expect(live.getAttribute("src")).toBeNull(); // the download stopped
    await vi.advanceTimersByTimeAsync(999);
    expect(status()).toBe("reconnecting");
    await vi.advanceTimersByTimeAsync(1);
    expect(status()).toBe("connecting");
    expect(live.play).toHaveBeenCalledTimes(2);
    // The second try fails too: the next wait is again 1 s, then 2 s.
    live.fire("error");
    expect(player.getState().live.retryAt).toBe(Date.now() + 1000);
    await vi.advanceTimersByTimeAsync(1000);
    live.fire("error");
    expect(player.getState().live.retryAt).toBe(Date.now() + 2000);
    await vi.advanceTimersByTimeAsync(2000);
    live.fire("playing");
    expect(player.getState().live).toMatchObject({ status: "playing", back: true });
    await vi.advanceTimersByTimeAsync(4000);
    expect(player.getState().live.back).toBe(false);
  });

  it("counts a connect that never starts playing within 10 s as a drop", async () => {
    player.playLive();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(status()).toBe("connecting");
    await vi.advanceTimersByTimeAsync(1);
    expect(status()).toBe("reconnecting");
  });

  it("counts 8 s of buffering as a drop, and recovers when the audio moves on", async () => {
    player.playLive();
    live.fire("playing");
    live.fire("waiting");
    expect(status()).toBe("buffering");
    live.fire("playing");
    await playOn(8);
    expect(status()).toBe("playing");
    live.fire("waiting");
    await vi.advanceTimersByTimeAsync(7_999);
    expect(status()).toBe("buffering");
    await vi.advanceTimersByTimeAsync(1);
    expect(status()).toBe("reconnecting");
  });

  it("notices a silent hang: playing, but the audio time has not moved for 6 s", async () => {
    player.playLive();
    live.fire("playing");
    await playOn(5);
    expect(status()).toBe("playing");
    // The watchdog looks once a second: the time last moved at its fifth look.
    await vi.advanceTimersByTimeAsync(6_000);
    expect(status()).toBe("playing");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(status()).toBe("reconnecting");
  });

  it("takes an unasked pause while playing as a drop, but the listener's own pause as final", async () => {
    player.playLive();
    live.fire("playing");
    live.fire("pause");
    expect(status()).toBe("reconnecting");
    player.stopLive();
    expect(player.getState().live).toMatchObject({ status: "idle", retryAt: null });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(status()).toBe("idle");
    expect(live.play).toHaveBeenCalledTimes(1);
  });

  it("goes at once when the server sees the stream back on air, instead of waiting out the backoff", async () => {
    player.playLive();
    live.fire("playing");
    for (let drop = 0; drop < 4; drop += 1) {
      live.fire("error");
      await vi.advanceTimersByTimeAsync(player.getState().live.retryAt! - Date.now());
    }
    player.nowPlayingChanged({ title: null, onAir: false });
    live.fire("error");
    expect(player.getState().live.retryAt! - Date.now()).toBe(8_000);
    player.nowPlayingChanged({ title: "Band Kampus - Lagu Sore", onAir: true });
    expect(status()).toBe("connecting");
    expect(player.getState().live.nowPlaying.title).toBe("Band Kampus - Lagu Sore");
  });

  it("waits offline without retrying, and connects again as soon as the network is back", async () => {
    player.playLive();
    live.fire("playing");
    network.onLine = false;
    page.dispatchEvent(new Event("offline"));
    expect(status()).toBe("offline");
    await vi.advanceTimersByTimeAsync(120_000);
    expect(live.play).toHaveBeenCalledTimes(1);
    network.onLine = true;
    page.dispatchEvent(new Event("online"));
    expect(status()).toBe("connecting");
    expect(live.play).toHaveBeenCalledTimes(2);
  });

  it("stays idle when the browser refuses to start without a tap (autoplay policy)", async () => {
    live.play.mockImplementationOnce(() => Promise.reject(new DOMException("no autoplay", "NotAllowedError")));
    player.playLive();
    await vi.advanceTimersByTimeAsync(0);
    expect(status()).toBe("idle");
    await vi.advanceTimersByTimeAsync(30_000);
    expect(status()).toBe("idle");
  });
});
