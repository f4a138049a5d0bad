import { decodeHTML } from "entities";

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

/** A title's bytes as text: UTF-8 when they are valid UTF-8, else Windows-1252/ISO-8859-1; then HTML entities. */
export function decodeStreamTitle(bytes: Uint8Array): string {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    text = decodeWindows1252(bytes);
  }
  return decodeHTML(text).trim();
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
  /** A (possibly unchanged) title from the stream, decoded; null when the stream names none. */
  onTitle(title: string | null): void;
  /** The stream's audio bytes as they arrive, without the ICY metadata (for recording). */
  onAudio?(bytes: Uint8Array): void;
}

// With no audio for this long, the connection is treated as dead (Icecast keeps a socket open on some failures).
const SILENCE_TIMEOUT_MS = 8_000;

/**
 * Follows one connection to `url`, reporting each ICY title as it arrives, until
 * the stream ends, fails or goes silent (the promise then resolves with why) or
 * `signal` aborts. Reconnecting is the caller's decision.
 */
export async function followIcyStream(url: string, handlers: IcyFollowHandlers, signal: AbortSignal): Promise<string> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener("abort", abort, { once: true });
  let silence: ReturnType<typeof setTimeout> | undefined;
  const heardAudio = () => {
    clearTimeout(silence);
    silence = setTimeout(() => controller.abort(), SILENCE_TIMEOUT_MS);
  };
  try {
    heardAudio();
    const response = await fetch(url, { headers: { "Icy-MetaData": "1" }, signal: controller.signal, redirect: "follow" });
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => {});
      return `HTTP ${response.status}`;
    }
    const metaInterval = Number(response.headers.get("icy-metaint"));
    const hasMetadata = Number.isInteger(metaInterval) && metaInterval > 0;
    handlers.onConnected();
    if (!hasMetadata) handlers.onTitle(null);
    const reader = response.body.getReader();
    // Where we are in the ICY framing: `audioLeft` bytes of audio, then a length byte, then a block.
    let audioLeft = hasMetadata ? metaInterval : Infinity;
    let block: Uint8Array | null = null;
    let blockFilled = 0;
    let expectLength = false;
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) return "the stream ended";
        heardAudio();
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
    if (signal.aborted) return "stopped";
    if (controller.signal.aborted) return "no audio for a while";
    return (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
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

/**
 * The current title of the mount at `streamUrl` from Icecast's status-json.xsl:
 * `{ found: false }` when that is not reachable or does not list the mount (not
 * an Icecast, an old one, a relay), so the caller keeps to the in-band titles.
 */
export async function readIcecastStatusTitle(streamUrl: string, signal?: AbortSignal): Promise<{ found: false } | { found: true; title: string | null }> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, 2_000);
  signal?.addEventListener("abort", abort);
  try {
    const response = await fetch(icecastStatusUrl(streamUrl), { signal: controller.signal });
    if (!response.ok) return { found: false };
    const body = (await response.json()) as { icestats?: { source?: unknown } };
    const sources = body.icestats?.source;
    const list = (Array.isArray(sources) ? sources : sources ? [sources] : []) as { listenurl?: unknown; title?: unknown }[];
    const mount = new URL(streamUrl).pathname;
    const source = list.find((s) => typeof s.listenurl === "string" && URL.canParse(s.listenurl) && new URL(s.listenurl).pathname === mount);
    if (!source) return { found: false };
    if (typeof source.title !== "string" && typeof source.title !== "number") return { found: true, title: null };
    const text = String(source.title);
    // Icecast writes the title as it stored it: UTF-8 text, or (for a source that declared no
    // charset) UTF-8 bytes read as ISO-8859-1. Both decode like in-band titles.
    // eslint-disable-next-line no-control-regex -- control characters are what this matches
    const title = /^[\u0000-\u00ff]*$/.test(text) ? decodeStreamTitle(Buffer.from(text, "latin1")) : decodeHTML(text).trim();
    return { found: true, title: title === "" ? null : title };
  } catch {
    return { found: false };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
  }
}
