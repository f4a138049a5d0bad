import { decodeHTML } from "entities";
import { readResponseWithin } from "./http-response.server";

/**
 * Reading a live stream's metadata (Icecast/SHOUTcast ICY in-band titles).
 *
 * Browsers' <audio> cannot see ICY metadata, so the server reads it once for
 * every listener. Titles arrive in whatever charset the server picked: Icecast
 * sends its mount's charset (ISO-8859-1 for MP3 by default) with HTML entities
 * for characters outside it, or passes UTF-8 through as it came from the source.
 */

const UTF8 = new TextDecoder("utf-8", { fatal: true });
// Windows-1252's printable characters at 0x80-0x9f (ISO-8859-1 has control codes there, which no
// title contains; encoders that say "ISO-8859-1" often mean this). Node's own "windows-1252"
// decoder without full ICU treats these bytes as ISO-8859-1, so the table is here.
const WINDOWS_1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function decodeWindows1252(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return text;
}

/*
 * Everything the upstream sends is hostile until cleaned: whoever controls the stream's metadata
 * (a DJ's source client, a compromised or misconfigured Icecast) picks these bytes, and the title
 * reaches every page, every socket.io client, the song history and the chapters of archived shows.
 * Every title leaves this module through cleanStreamTitle, and nothing else reads the upstream.
 */

/** The longest title kept, in characters (code points)... */
export const TITLE_MAX_CHARACTERS = 300;
/** ...and in UTF-8 bytes (300 emoji would be 1,200). */
export const TITLE_MAX_BYTES = 1_024;
// Cleaning looks at no more than this much of a title (it is cut far shorter anyway).
const TITLE_MAX_INPUT = 16_384;
// C0 and C1 control characters (NUL, CR, LF, ESC...), DEL, the line and paragraph separators: a space.
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// Invisible characters that reorder or hide text: bidi marks, embeddings, overrides and isolates,
// zero-width spaces and joiners of words (not U+200C/U+200D, which scripts and emoji need), the byte
// order mark, interlinear annotations, noncharacters, and halves of surrogate pairs: removed.
const INVISIBLE =
  /[\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The one cleaning of a stream title, wherever it is used: one line of visible text (control
 * characters become spaces, bidi and other invisible format characters go, runs of white space
 * become one space), at most TITLE_MAX_CHARACTERS characters and TITLE_MAX_BYTES bytes of UTF-8.
 * Cleaning a clean title changes nothing.
 */
export function cleanStreamTitle(text: string): string {
  const cleaned = text.slice(0, TITLE_MAX_INPUT).replace(BREAKING, " ").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
  let characters = 0;
  let bytes = 0;
  let end = 0;
  for (const character of cleaned) {
    const point = character.codePointAt(0)!;
    const size = point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    if (characters === TITLE_MAX_CHARACTERS || bytes + size > TITLE_MAX_BYTES) break;
    characters += 1;
    bytes += size;
    end += character.length;
  }
  return end === cleaned.length ? cleaned : cleaned.slice(0, end).trimEnd();
}

/** A title's bytes as text: UTF-8 when they are valid UTF-8, else Windows-1252/ISO-8859-1; then HTML entities; then cleaned. */
export function decodeStreamTitle(bytes: Uint8Array): string {
  if (bytes.length > TITLE_MAX_INPUT) {
    // Cut on a character boundary of UTF-8, so a long UTF-8 title stays UTF-8.
    let end = TITLE_MAX_INPUT;
    while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
    bytes = bytes.subarray(0, end);
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    text = decodeWindows1252(bytes);
  }
  return cleanStreamTitle(decodeHTML(text));
}

/** The `StreamTitle` of one ICY metadata block (null when the block has none or it is empty). */
export function parseIcyMetadataBlock(block: Uint8Array): string | null {
  let end = block.length;
  while (end > 0 && block[end - 1] === 0) end -= 1;
  // Find the field in the raw bytes (the text may not be UTF-8 yet): StreamTitle='...';
  const raw = Buffer.from(block.buffer, block.byteOffset, end);
  const start = raw.indexOf("StreamTitle='", 0, "latin1");
  if (start === -1) return null;
  const from = start + "StreamTitle='".length;
  // A title may itself contain "'" (Don't Stop): the field ends at the last "';" before the next field or the end.
  const nextField = raw.indexOf("';Stream", from, "latin1");
  let to = nextField !== -1 ? nextField : raw.lastIndexOf("';", raw.length, "latin1");
  if (to < from) to = raw.length;
  const title = decodeStreamTitle(raw.subarray(from, to));
  return title === "" ? null : title;
}

export interface IcyFollowHandlers {
  /** The stream answered and audio flows. */
  onConnected(): void;
  /** A (possibly unchanged) title from the stream, decoded and cleaned; null when the stream names none. */
  onTitle(title: string | null): void;
  /** The stream's audio bytes as they arrive, without the ICY metadata (for recording). */
  onAudio?(bytes: Uint8Array): void;
}

/** Why a connection to the stream ended; `misbehaved` when the upstream broke a rule (the caller backs off). */
export interface StreamEnd {
  reason: string;
  misbehaved: boolean;
}

/** How the station's own reader of the stream names itself to Icecast: the audience figures leave it out. */
export const STATION_FOLLOWER_AGENT = "SPIN-RADIO-station-follower";

/** An upstream answer that breaks a rule: too big, too fast, malformed, or redirecting elsewhere. */
export class UpstreamMisbehaved extends Error {}

// With no audio for this long, the connection is treated as dead (Icecast keeps a socket open on some failures).
const SILENCE_TIMEOUT_MS = 8_000;
// Redirects are followed only within the stream's own origin (scheme, host, port), this many at most:
// the server would otherwise fetch any address the upstream names and show what it answers (blind SSRF).
const MAX_REDIRECTS = 3;
// Icecast's default icy-metaint is 16000 and SHOUTcast's 8192; no server sends audio for a megabyte between titles.
const MAX_METAINT = 1_048_576;
// More than this many bytes within STREAM_RATE_WINDOW_MS is no audio stream (lossless 96 kHz is ~0.6 MB/s):
// a flood, ended before it costs the recorder and the event loop.
const STREAM_RATE_WINDOW_MS = 5_000;
const STREAM_MAX_BYTES_PER_WINDOW = 10 * 1_048_576;
// Icecast's status-json.xsl lists every mount in a few hundred bytes each.
const STATUS_MAX_BYTES = 1_048_576;
const STATUS_TIMEOUT_MS = 2_000;

/**
 * fetch() that follows redirects only to the origin of `url`, MAX_REDIRECTS at most; throws
 * UpstreamMisbehaved for any other. Never `redirect: "follow"` for an upstream URL.
 */
export async function fetchWithinOrigin(url: string, init: RequestInit): Promise<Response> {
  const origin = new URL(url).origin;
  let current = url;
  for (let hop = 0; ; hop += 1) {
    const response = await fetch(current, { ...init, redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel().catch(() => {});
    const next = URL.canParse(location, current) ? new URL(location, current) : null;
    if (!next || next.origin !== origin) throw new UpstreamMisbehaved(`a redirect away from ${origin}`);
    if (hop === MAX_REDIRECTS) throw new UpstreamMisbehaved("too many redirects");
    current = next.href;
  }
}

/**
 * Follows one connection to `url`, reporting each ICY title as it arrives, until
 * the stream ends, fails, goes silent or misbehaves (the promise then resolves with why) or
 * `signal` aborts. Reconnecting is the caller's decision.
 */
export async function followIcyStream(url: string, handlers: IcyFollowHandlers, signal: AbortSignal): Promise<StreamEnd> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener("abort", abort, { once: true });
  let silence: ReturnType<typeof setTimeout> | undefined;
  const heardAudio = () => {
    clearTimeout(silence);
    silence = setTimeout(() => controller.abort(), SILENCE_TIMEOUT_MS);
  };
  const ended = (reason: string): StreamEnd => ({ reason, misbehaved: false });
  try {
    heardAudio();
    const response = await fetchWithinOrigin(url, { headers: { "Icy-MetaData": "1", "User-Agent": STATION_FOLLOWER_AGENT }, signal: controller.signal });
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => {});
      return ended(`HTTP ${response.status}`);
    }
    const metaIntervalHeader = response.headers.get("icy-metaint");
    const hasMetadata = metaIntervalHeader !== null;
    const metaInterval = Number(metaIntervalHeader);
    if (hasMetadata && !(/^\d{1,7}$/.test(metaIntervalHeader.trim()) && metaInterval > 0 && metaInterval <= MAX_METAINT)) {
      await response.body.cancel().catch(() => {});
      return { reason: `an icy-metaint of ${JSON.stringify(metaIntervalHeader.slice(0, 20))}`, misbehaved: true };
    }
    handlers.onConnected();
    if (!hasMetadata) handlers.onTitle(null);
    const reader = response.body.getReader();
    // Where we are in the ICY framing: `audioLeft` bytes of audio, then a length byte, then a block
    // (at most 255 × 16 bytes: the length byte bounds it).
    let audioLeft = hasMetadata ? metaInterval : Infinity;
    let block: Uint8Array | null = null;
    let blockFilled = 0;
    let expectLength = false;
    let windowStart = Date.now();
    let windowBytes = 0;
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) return ended("the stream ended");
        heardAudio();
        if (Date.now() - windowStart > STREAM_RATE_WINDOW_MS) {
          windowStart = Date.now();
          windowBytes = 0;
        }
        windowBytes += value.length;
        if (windowBytes > STREAM_MAX_BYTES_PER_WINDOW) return { reason: "the stream sends faster than any audio", misbehaved: true };
        let at = 0;
        while (at < value.length) {
          if (block) {
            const take = Math.min(block.length - blockFilled, value.length - at);
            block.set(value.subarray(at, at + take), blockFilled);
            blockFilled += take;
            at += take;
            if (blockFilled === block.length) {
              handlers.onTitle(parseIcyMetadataBlock(block));
              block = null;
              audioLeft = metaInterval;
            }
          } else if (expectLength) {
            const length = value[at] * 16;
            at += 1;
            expectLength = false;
            if (length === 0) audioLeft = metaInterval;
            else {
              block = new Uint8Array(length);
              blockFilled = 0;
            }
          } else {
            const take = Math.min(audioLeft, value.length - at);
            handlers.onAudio?.(value.subarray(at, at + take));
            audioLeft -= take;
            at += take;
            if (audioLeft === 0) expectLength = true;
          }
        }
      }
    } finally {
      void reader.cancel().catch(() => {});
    }
  } catch (error) {
    if (signal.aborted) return ended("stopped");
    if (error instanceof UpstreamMisbehaved) return { reason: error.message, misbehaved: true };
    if (controller.signal.aborted) return ended("no audio for a while");
    return ended((error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message);
  } finally {
    clearTimeout(silence);
    signal.removeEventListener("abort", abort);
    controller.abort();
  }
}

/** Reads the first ICY `StreamTitle` from a stream, then hangs up (null when there is none within the timeout). */
export async function readIcyTitle(url: string, timeoutMs = 5_000): Promise<string | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let title: string | null = null;
  try {
    await followIcyStream(
      url,
      {
        onConnected() {},
        onTitle(value) {
          title = value;
          controller.abort();
        },
      },
      controller.signal,
    );
    return title;
  } finally {
    clearTimeout(timer);
  }
}

/** Icecast's JSON status next to a stream URL (`/status-json.xsl` on the same server). */
export function icecastStatusUrl(streamUrl: string): string {
  return new URL("/status-json.xsl", streamUrl).href;
}

/** What status-json.xsl said: the mount's title, nothing (no Icecast, mount not listed), or a broken rule. */
export type IcecastStatus = { found: true; title: string | null } | { found: false; misbehaved?: string };

/**
 * The current title of the mount at `streamUrl` from Icecast's status-json.xsl:
 * `{ found: false }` when that is not reachable or does not list the mount (not
 * an Icecast, an old one, a relay), so the caller keeps to the in-band titles; with
 * `misbehaved` when the answer broke a rule (too big, too slow, not JSON, redirected elsewhere).
 */
export async function readIcecastStatusTitle(streamUrl: string, signal?: AbortSignal): Promise<IcecastStatus> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, STATUS_TIMEOUT_MS);
  signal?.addEventListener("abort", abort);
  try {
    const response = await fetchWithinOrigin(icecastStatusUrl(streamUrl), { headers: { Accept: "application/json" }, signal: controller.signal });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return response.status === 404 ? { found: false } : { found: false, misbehaved: `HTTP ${response.status}` };
    }
    // Icecast 2.4 says application/json (older ones text/javascript).
    const type = response.headers.get("content-type") ?? "";
    if (!/json|javascript/i.test(type)) {
      await response.body?.cancel().catch(() => {});
      return { found: false, misbehaved: `an answer of type ${JSON.stringify(type.slice(0, 40))}` };
    }
    let body: unknown;
    try {
      const bytes = await readResponseWithin(response, STATUS_MAX_BYTES);
      if (bytes === null) throw new UpstreamMisbehaved(`an answer over ${STATUS_MAX_BYTES} bytes`);
      body = JSON.parse(bytes.toString("utf8"));
    } catch (error) {
      if (error instanceof SyntaxError) return { found: false, misbehaved: "an answer that is not JSON" };
      throw error;
    }
    const icestats = body && typeof body === "object" ? (body as { icestats?: unknown }).icestats : undefined;
    const sources = icestats && typeof icestats === "object" ? (icestats as { source?: unknown }).source : undefined;
    const list = (Array.isArray(sources) ? sources : sources && typeof sources === "object" ? [sources] : []) as { listenurl?: unknown; title?: unknown }[];
    const mount = new URL(streamUrl).pathname;
    const source = list.find((s) => s && typeof s.listenurl === "string" && URL.canParse(s.listenurl) && new URL(s.listenurl).pathname === mount);
    if (!source) return { found: false };
    if (typeof source.title !== "string" && typeof source.title !== "number") return { found: true, title: null };
    const text = String(source.title).slice(0, TITLE_MAX_INPUT);
    // Icecast writes the title as it stored it: UTF-8 text, or (for a source that declared no
    // charset) UTF-8 bytes read as ISO-8859-1. Both decode like in-band titles.
    // eslint-disable-next-line no-control-regex -- control characters are what this matches
    const title = /^[\u0000-\u00ff]*$/.test(text) ? decodeStreamTitle(Buffer.from(text, "latin1")) : cleanStreamTitle(decodeHTML(text));
    return { found: true, title: title === "" ? null : title };
  } catch (error) {
    if (error instanceof UpstreamMisbehaved) return { found: false, misbehaved: error.message };
    if (controller.signal.aborted && !signal?.aborted) return { found: false, misbehaved: `no answer within ${STATUS_TIMEOUT_MS} ms` };
    return { found: false };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
  }
}

/** What checking a stream URL found (the settings screen says it before a new stream URL is saved). */
export type StreamCheck =
  | { ok: true; title: string | null }
  | { ok: false; problem: "unreachable"; detail: string }
  | { ok: false; problem: "status"; status: number }
  | { ok: false; problem: "notAudio"; contentType: string };

const AUDIO_TYPES = /^(audio\/|application\/ogg|application\/octet-stream)/i;

/**
 * Connects to `url` as a player would and hangs up within `timeoutMs`: an answer of 200 with audio
 * (or Icecast's icy- headers) passes, with the stream's current ICY title when it sends one.
 * Nothing but the headers and at most one title's worth of audio is read.
 */
export async function checkStream(url: string, timeoutMs = 5_000): Promise<StreamCheck> {
  const started = Date.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let response: Response;
  try {
    response = await fetchWithinOrigin(url, { headers: { "Icy-MetaData": "1", "User-Agent": STATION_FOLLOWER_AGENT }, signal: controller.signal });
  } catch (error) {
    const cause = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
    return { ok: false, problem: "unreachable", detail: controller.signal.aborted ? `no answer within ${timeoutMs / 1000} s` : cause };
  } finally {
    clearTimeout(timer);
  }
  await response.body?.cancel().catch(() => {});
  if (response.status !== 200) return { ok: false, problem: "status", status: response.status };
  const contentType = response.headers.get("content-type") ?? "";
  const icy = response.headers.has("icy-metaint") || response.headers.has("icy-name");
  if (!AUDIO_TYPES.test(contentType) && !icy) return { ok: false, problem: "notAudio", contentType: contentType.split(";")[0] || "?" };
  const left = Math.max(500, timeoutMs - (Date.now() - started));
  return { ok: true, title: response.headers.has("icy-metaint") ? await readIcyTitle(url, left) : null };
}
