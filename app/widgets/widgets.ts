/**
 * /widgets.js: the station on other sites, as web components in one small script without a
 * framework (budget 15 KB gzip, printed by `npm run bench`): <spin-player>, <spin-now-playing>,
 * <spin-schedule>, <spin-history> and <spin-episode>. Each draws into its own shadow root with a
 * constructed style sheet, so the host page's CSS cannot break it and a strict host CSP
 * (no inline styles) still lets it look right. Everything it shows is set as text
 * (textContent), never as HTML; attributes pass the one check in ./options.
 *
 * Data comes from the station's public widget endpoints (server/widgets.ts) without credentials:
 * a widget never sends or sees the station's cookies. Live changes arrive over one EventSource per
 * page (/widgets/live, a few hundred bytes of code instead of the socket.io client's ~45 KB).
 */
import en from "~/locales/en/widgets.json";
import id from "~/locales/id/widgets.json";
import { OPTION_NAMES, readWidgetOptions, type WidgetKind, type WidgetOptions } from "./options";

type Messages = typeof en;
type Language = "id" | "en";
const MESSAGES: Record<Language, Messages> = { en, id };
const LOCALES: Record<Language, string> = { en: "en-GB", id: "id-ID" };

// The station is where this script came from (an embed page, or a <script> on another site).
const ORIGIN = new URL((document.currentScript as HTMLScriptElement | null)?.src || location.href).origin;

interface Station {
  name: string;
  accent: string;
  logo: string;
  language: string;
  listenUrl: string;
  streamUrl: string;
}
interface Show {
  name: string;
  hosts: string;
  start: string;
  end: string;
  artwork: string | null;
  url: string;
}
interface NowPlaying {
  title: string | null;
  onAir: boolean;
}
interface Episode {
  id: number;
  title: string;
  description: string;
  durationSeconds: number;
  publishedAt: string;
  cover: string;
  audio: string;
  url: string;
  show: string | null;
}
interface NowData {
  station: Station;
  nowPlaying: NowPlaying;
  show: Show | null;
  next: Show | null;
}

const STYLE = `:host{display:block}
.w{--a:#e11d48;--bg:#14151b;--fg:#f4f4f6;--mu:#a3a3ad;--ln:#2c2e38;font:400 var(--fs,15px)/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);border:1px solid var(--ln);border-radius:12px;padding:12px;box-sizing:border-box;overflow:hidden;text-align:start}
.light{--bg:#fff;--fg:#17171f;--mu:#55555f;--ln:#e2e2e8}
@media (prefers-color-scheme:light){.auto{--bg:#fff;--fg:#17171f;--mu:#55555f;--ln:#e2e2e8}}
.small{--fs:13px;padding:8px}.large{--fs:17px;padding:16px}
.row{display:flex;gap:12px;align-items:center}
.art{width:3.6em;height:3.6em;border-radius:8px;object-fit:cover;flex:none;background:var(--ln)}
.big{width:6.5em;height:6.5em}
.tx{min-width:0;flex:1}
p{margin:0}
.t{font-weight:650;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.m{color:var(--mu);font-size:.86em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.b{display:inline-block;background:var(--a);color:#fff;font-size:.7em;font-weight:700;letter-spacing:.06em;padding:1px 6px;border-radius:4px;margin-inline-end:6px;vertical-align:1px}
.off .b{background:var(--mu)}
button{all:unset;box-sizing:border-box;width:44px;height:44px;border-radius:50%;background:var(--a);color:#fff;display:grid;place-items:center;cursor:pointer;flex:none}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid var(--fg);outline-offset:2px}
svg{width:22px;height:22px;fill:currentColor}
.seek{display:flex;gap:8px;align-items:center;margin-top:8px;font-size:.8em;color:var(--mu);font-variant-numeric:tabular-nums}
input{flex:1;min-width:0;height:24px;accent-color:var(--a);margin:0}
h2{font-size:.78em;letter-spacing:.08em;text-transform:uppercase;color:var(--mu);margin:0 0 6px}
h3{font-size:.85em;margin:10px 0 2px}
ul{list-style:none;margin:0;padding:0}
li{display:flex;gap:10px;padding:6px 0;border-top:1px solid var(--ln);align-items:baseline}
li:first-child{border-top:0}
time{color:var(--mu);font-variant-numeric:tabular-nums;flex:none;min-width:3.3em}
li .tx{overflow:hidden}
a{color:inherit;text-underline-offset:2px}
.d{display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden;color:var(--mu);margin-top:8px;font-size:.9em}
.lnk{display:inline-block;margin-top:8px;font-size:.86em;min-height:24px}`;

let sheet: CSSStyleSheet | null = null;
function styleInto(root: ShadowRoot) {
  try {
    sheet ??= new CSSStyleSheet();
    if (!sheet.cssRules.length) sheet.replaceSync(STYLE);
    root.adoptedStyleSheets = [sheet];
  } catch {
    // Browsers without constructed style sheets (before 2023) take a <style> element.
    root.append(el("style", "", STYLE));
  }
}

// ---------------------------------------------------------------- small helpers

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = "", text?: string | null): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

/** An address from the station's answers, only when it is http(s): nothing else becomes a src or href. */
function safeUrl(value: unknown): string {
  try {
    const url = new URL(String(value), ORIGIN);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : "";
  } catch {
    return "";
  }
}

function link(href: string, text: string, className = ""): HTMLAnchorElement {
  const anchor = el("a", className, text);
  anchor.href = safeUrl(href);
  anchor.target = "_blank";
  anchor.rel = "noopener";
  return anchor;
}

function image(src: string | null, className: string): HTMLImageElement {
  const img = el("img", className);
  img.alt = "";
  img.src = safeUrl(src);
  img.loading = "lazy";
  return img;
}

const ICONS = { play: "M8 5v14l11-7z", pause: "M6 5h4v14H6zm8 0h4v14h-4z" };
function icon(name: keyof typeof ICONS): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds || 0));
  const pad = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(whole / 3600);
  return h ? `${h}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}` : `${Math.floor(whole / 60)}:${pad(whole % 60)}`;
}

async function getJson<T>(path: string): Promise<T> {
  // No credentials: the station's cookies never travel with a widget's requests.
  const response = await fetch(ORIGIN + path, { credentials: "omit", mode: "cors" });
  if (!response.ok) throw new Error(String(response.status));
  return (await response.json()) as T;
}

// ---------------------------------------------------------------- live updates: one EventSource per page

const listeners = new Set<SpinWidget>();
let source: EventSource | null = null;

function follow(widget: SpinWidget) {
  listeners.add(widget);
  if (source) return;
  let opened = false;
  source = new EventSource(ORIGIN + "/widgets/live");
  source.addEventListener("nowplaying", (event) => {
    try {
      const state = JSON.parse((event as MessageEvent<string>).data) as NowPlaying;
      for (const each of listeners) each.nowPlayingChanged(state);
    } catch {
      // A malformed event changes nothing.
    }
  });
  source.addEventListener("changed", () => listeners.forEach((each) => each.changed()));
  // Back after a drop: what changed meanwhile was not sent.
  source.addEventListener("open", () => {
    if (opened) listeners.forEach((each) => each.changed());
    opened = true;
  });
}

function unfollow(widget: SpinWidget) {
  listeners.delete(widget);
  if (listeners.size === 0 && source) {
    source.close();
    source = null;
  }
}

// ---------------------------------------------------------------- the widgets

/** What one widget shows: fetched, drawn, told of live changes. <spin-player> switches between two. */
interface View {
  fetch(): Promise<{ station: Station } | null>;
  draw(data: unknown): void;
  nowPlaying?(state: NowPlaying): void;
  stop?(): void;
}

class SpinWidget extends HTMLElement {
  static observedAttributes = OPTION_NAMES;
  options!: WidgetOptions;
  readonly box: HTMLDivElement = el("div");
  station: Station | null = null;
  private view: View | null = null;
  private loads = 0;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private changeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly kind: WidgetKind,
    private readonly makeView: (widget: SpinWidget, previous: View | null) => View,
  ) {
    super();
    const root = this.attachShadow({ mode: "open" });
    styleInto(root);
    root.append(this.box);
  }

  connectedCallback() {
    this.configure();
    follow(this);
    void this.load();
  }
  disconnectedCallback() {
    unfollow(this);
    clearTimeout(this.refreshTimer);
    clearTimeout(this.changeTimer);
    this.view?.stop?.();
  }
  attributeChangedCallback() {
    if (!this.isConnected) return;
    this.configure();
    void this.load();
  }

  private configure() {
    this.options = readWidgetOptions(this.kind, (name) => this.getAttribute(name)).options;
    this.box.className = `w ${this.options.theme} ${this.options.size}`;
    const view = this.makeView(this, this.view);
    if (view !== this.view) this.view?.stop?.();
    this.view = view;
    this.paintAccent();
  }
  private paintAccent() {
    // A CSSOM property, not a style attribute: allowed under a strict host CSP. Both values are checked hex colours.
    const accent = this.options.accent ?? (/^#[0-9a-f]{3,8}$/i.test(this.station?.accent ?? "") ? this.station!.accent : null);
    if (accent) this.box.style.setProperty("--a", accent);
    this.box.lang = this.language;
  }

  get language(): Language {
    const wanted = this.options.lang ?? this.station?.language;
    return wanted === "en" || wanted === "id" ? wanted : "id";
  }
  t(key: keyof Messages, values: Record<string, string> = {}): string {
    return MESSAGES[this.language][key].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "");
  }
  time(iso: string, options: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit" }): string {
    // No timeZone: the visitor's own.
    return new Intl.DateTimeFormat(LOCALES[this.language], options).format(new Date(iso));
  }
  get stationName(): string {
    return this.station?.name ?? new URL(ORIGIN).host;
  }

  /** Fetches and draws; answers to an earlier load that arrive late are dropped. */
  async load() {
    const load = ++this.loads;
    const view = this.view!;
    try {
      const data = await view.fetch();
      if (load !== this.loads) return;
      this.station = data?.station ?? this.station;
      this.paintAccent();
      view.draw(data);
    } catch {
      if (load !== this.loads) return;
      this.box.replaceChildren(el("p", "m", this.t("unreachable", { station: this.stationName })));
    }
  }

  /** Draws again once the first of `times` (ISO: a show's end, the next one's start) has come, when that is within a day. */
  refreshAt(times: (string | null | undefined)[]) {
    clearTimeout(this.refreshTimer);
    const next = Math.min(...times.map((time) => (time ? Date.parse(time) : Infinity)).filter((at) => at > Date.now()));
    const wait = next - Date.now() + 1000;
    if (Number.isFinite(wait) && wait < 86_400_000) this.refreshTimer = setTimeout(() => void this.load(), wait);
  }

  /** Something on the station changed: fetch again, spread over a moment so a station's widgets do not all ask at once. */
  changed() {
    clearTimeout(this.changeTimer);
    this.changeTimer = setTimeout(() => void this.load(), 200 + Math.random() * 800);
  }
  nowPlayingChanged(state: NowPlaying) {
    this.view?.nowPlaying?.(state);
  }
}

/** Plays an <audio> with one round button. */
class AudioControl {
  readonly audio = new Audio();
  readonly button = el("button");
  constructor(
    private readonly label: (playing: boolean) => string,
    private readonly source: () => string,
    private readonly onChange: () => void = () => {},
  ) {
    this.button.type = "button";
    this.button.addEventListener("click", () => (this.playing ? this.audio.pause() : this.play()));
    for (const name of ["play", "pause", "ended", "error"]) this.audio.addEventListener(name, () => this.paint());
  }
  get playing() {
    return !this.audio.paused;
  }
  play() {
    const src = this.source();
    if (this.audio.getAttribute("src") !== src) this.audio.src = src;
    this.audio.play().catch(() => this.paint());
  }
  paint() {
    this.button.replaceChildren(icon(this.playing ? "pause" : "play"));
    this.button.setAttribute("aria-label", this.label(this.playing));
    this.onChange();
  }
}

/** The live line: artwork (the show's, else the station's), LIVE, the title or off air, the show on now or next; a play button in the player. */
function liveView(w: SpinWidget, withPlayer: boolean): View {
  let now: NowData | null = null;
  let titleLine: HTMLElement | null = null;
  const control =
    withPlayer &&
    new AudioControl(
      (playing) => w.t(playing ? "pauseLive" : "playLive", { station: w.stationName }),
      // A fresh address per start: always the live edge, never a stale buffered copy.
      () => `${safeUrl(now?.station.streamUrl ?? `${ORIGIN}/stream/live`)}?listen=${Date.now().toString(36)}`,
      () => lockScreen(),
    );
  // The lock screen names what plays while this widget plays it: the show's artwork, else the station's.
  const lockScreen = () => {
    if (!control || !control.playing || !now || !("mediaSession" in navigator)) return;
    const { station, show, nowPlaying } = now;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: nowPlaying.title ?? station.name,
      artist: station.name,
      album: show?.name ?? "",
      artwork: [{ src: safeUrl(show?.artwork ?? station.logo) }],
    });
  };
  const showTitle = (state: NowPlaying) => {
    if (!titleLine) return;
    w.box.classList.toggle("off", !state.onAir);
    titleLine.textContent = state.onAir ? (state.title ?? w.stationName) : w.t("offAir");
    titleLine.title = titleLine.textContent;
  };
  return {
    fetch: () => getJson<NowData>("/widgets/now-playing.json"),
    draw(data: NowData) {
      now = data;
      const { station, show, next } = data;
      const text = el("div", "tx");
      const head = el("p", "m");
      head.append(el("span", "b", w.t("live")), station.name);
      titleLine = el("p", "t");
      text.append(head, titleLine);
      if (show) text.append(el("p", "m", [w.t("onNow", { show: show.name }), show.hosts && w.t("withHosts", { hosts: show.hosts })].filter(Boolean).join(" ")));
      else if (next)
        text.append(el("p", "m", w.t("upNext", { show: next.name, time: w.time(next.start, { weekday: "short", hour: "2-digit", minute: "2-digit" }) })));
      const row = el("div", "row");
      row.append(image(show?.artwork ?? station.logo, "art"), text);
      if (control) {
        control.paint();
        row.append(control.button);
      }
      w.box.replaceChildren(row);
      showTitle(data.nowPlaying);
      lockScreen();
      w.refreshAt([show?.end, next?.start]);
    },
    nowPlaying(state) {
      if (now) now.nowPlaying = state;
      showTitle(state);
      lockScreen();
    },
    stop() {
      if (!control) return;
      control.audio.pause();
      control.audio.removeAttribute("src");
    },
  };
}

/** An episode: cover, title, a play button and a position slider; the card adds its description and a link. */
function episodeView(w: SpinWidget, card: boolean): View {
  let episode: Episode | null = null;
  let started = false;
  const slider = el("input");
  const elapsed = el("span");
  const total = el("span");
  const control = new AudioControl(
    (playing) => w.t(playing ? "pauseEpisode" : "playEpisode", { title: episode?.title ?? "" }),
    () => safeUrl(episode?.audio),
    () => paintPosition(),
  );
  const { audio } = control;
  audio.preload = "metadata";
  const paintPosition = () => {
    const duration = Number.isFinite(audio.duration) ? audio.duration : (episode?.durationSeconds ?? 0);
    const at = started ? audio.currentTime : (w.options.start ?? 0);
    slider.value = String(Math.round(at));
    slider.setAttribute("aria-valuetext", `${clock(at)} / ${clock(duration)}`);
    elapsed.textContent = clock(at);
    total.textContent = clock(duration);
  };
  // A shared link's start (t="90") applies once, when the audio's length is known.
  let startAt: number | null = null;
  audio.addEventListener("loadedmetadata", () => {
    if (!started) audio.currentTime = startAt ?? w.options.start ?? 0;
    started = true;
    paintPosition();
  });
  audio.addEventListener("timeupdate", paintPosition);
  slider.type = "range";
  slider.min = "0";
  slider.step = "1";
  slider.addEventListener("input", () => {
    if (started) audio.currentTime = Number(slider.value);
    else startAt = Number(slider.value);
    paintPosition();
  });
  return {
    fetch: () =>
      w.options.episode === null ? Promise.resolve(null) : getJson<{ station: Station; episode: Episode }>(`/widgets/episodes/${w.options.episode}.json`),
    draw(data: { station: Station; episode: Episode } | null) {
      if (!data) {
        w.box.replaceChildren(el("p", "m", w.t("episodeMissing")));
        return;
      }
      const { station } = data;
      if (episode?.id !== data.episode.id) {
        started = false;
        startAt = null;
        audio.pause();
        audio.removeAttribute("src");
      }
      episode = data.episode;
      const text = el("div", "tx");
      text.append(
        el("p", "t", episode.title),
        el("p", "m", [episode.show, station.name].filter(Boolean).join(" · ")),
        el("p", "m", `${w.time(episode.publishedAt, { dateStyle: "medium" })} · ${clock(episode.durationSeconds)}`),
      );
      const row = el("div", "row");
      row.append(image(episode.cover, card ? "art big" : "art"), text, control.button);
      slider.max = String(Math.max(1, Math.round(episode.durationSeconds)));
      slider.setAttribute("aria-label", w.t("position", { title: episode.title }));
      const seek = el("div", "seek");
      seek.append(elapsed, slider, total);
      const parts: HTMLElement[] = [row, seek];
      if (card) parts.push(el("p", "d", episode.description), link(episode.url, w.t("openOn", { station: station.name }), "lnk"));
      w.box.replaceChildren(...parts);
      control.paint();
    },
    stop: () => audio.pause(),
  };
}

/** Today's shows or the week's, in the visitor's time zone, the one on air marked. */
function scheduleView(w: SpinWidget): View {
  return {
    fetch: () => getJson<{ station: Station; airings: Show[] }>("/widgets/schedule.json"),
    draw({ airings }: { airings: Show[] }) {
      const now = Date.now();
      const dayKey = (at: number) => w.time(new Date(at).toISOString(), { year: "numeric", month: "2-digit", day: "2-digit" });
      const today = dayKey(now);
      const days = w.options.view === "week" ? 7 : 1;
      const wanted = new Set(Array.from({ length: days }, (_, day) => dayKey(now + day * 86_400_000)));
      const groups = new Map<string, Show[]>();
      for (const airing of airings) {
        const start = Date.parse(airing.start);
        const end = Date.parse(airing.end);
        // The show on air counts for today even when it began yesterday evening.
        const key = start <= now && end > now ? today : dayKey(start);
        if (!wanted.has(key)) continue;
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key)!.push(airing);
      }
      const parts: HTMLElement[] = [el("h2", "", w.t(days === 1 ? "today" : "thisWeek"))];
      if (groups.size === 0) parts.push(el("p", "m", w.t("noShows")));
      for (const [key, shows] of groups) {
        if (days > 1) parts.push(el("h3", "", key === today ? w.t("today") : w.time(shows[0].start, { weekday: "long", day: "numeric", month: "long" })));
        const list = el("ul");
        for (const show of shows) {
          const item = el("li");
          const text = el("div", "tx");
          if (Date.parse(show.start) <= now && Date.parse(show.end) > now) text.append(el("span", "b", w.t("onAirMark")));
          text.append(link(show.url, show.name));
          if (show.hosts) text.append(el("p", "m", w.t("withHosts", { hosts: show.hosts })));
          const time = el("time", "", w.time(show.start));
          time.dateTime = show.start;
          item.append(time, text);
          list.append(item);
        }
        parts.push(list);
      }
      w.box.replaceChildren(...parts);
      // The on-air mark moves when a show starts or ends.
      w.refreshAt(airings.flatMap((show) => [show.start, show.end]));
    },
  };
}

/** The last songs the station played, newest first. */
function historyView(w: SpinWidget): View {
  type Song = { playedAt: string; artist: string; title: string };
  return {
    fetch: () => getJson<{ station: Station; songs: Song[] }>(`/widgets/history.json?limit=${w.options.limit}`),
    draw({ songs }: { songs: Song[] }) {
      const list = el("ul");
      for (const song of songs) {
        const item = el("li");
        const time = el("time", "", w.time(song.playedAt));
        time.dateTime = song.playedAt;
        const text = el("div", "tx");
        text.append(el("p", "t", song.title), el("p", "m", song.artist));
        item.append(time, text);
        list.append(item);
      }
      w.box.replaceChildren(el("h2", "", w.t("recentlyPlayed")), songs.length ? list : el("p", "m", w.t("noSongs")));
    },
  };
}

// Each element keeps its view while its attributes change; <spin-player> swaps live for an episode when given one.
const widget = (kind: WidgetKind, make: (w: SpinWidget, previous: View | null) => View) =>
  class extends SpinWidget {
    constructor() {
      super(kind, make);
    }
  };
const once = (make: (w: SpinWidget) => View) => (w: SpinWidget, previous: View | null) => previous ?? make(w);
const playerViews = new WeakMap<View, boolean>();

const ELEMENTS: [string, CustomElementConstructor][] = [
  [
    "spin-now-playing",
    widget(
      "now-playing",
      once((w) => liveView(w, false)),
    ),
  ],
  [
    "spin-player",
    widget("player", (w, previous) => {
      const wantsEpisode = w.options.episode !== null;
      if (previous && playerViews.get(previous) === wantsEpisode) return previous;
      const view = wantsEpisode ? episodeView(w, false) : liveView(w, true);
      playerViews.set(view, wantsEpisode);
      return view;
    }),
  ],
  [
    "spin-episode",
    widget(
      "episode",
      once((w) => episodeView(w, true)),
    ),
  ],
  ["spin-schedule", widget("schedule", once(scheduleView))],
  ["spin-history", widget("history", once(historyView))],
];
// A page that loads the script twice keeps the first definitions.
for (const [name, element] of ELEMENTS) if (!customElements.get(name)) customElements.define(name, element);
