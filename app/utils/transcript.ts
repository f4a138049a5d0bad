/*
 * Transcripts (WebVTT or SRT) and Podcasting 2.0 JSON chapters: parsed the
 * same way on the server (to refuse a bad upload before it is stored) and in
 * the browser (to show cues synced to the audio).
 */

export interface Cue {
  start: number;
  end: number;
  text: string;
}

export type TranscriptFormat = "vtt" | "srt";

export const TRANSCRIPT_TYPES: Record<TranscriptFormat, "text/vtt" | "application/x-subrip"> = {
  vtt: "text/vtt",
  srt: "application/x-subrip",
};

// 00:01:02.500 / 01:02.500 (WebVTT) and 00:01:02,500 (SRT).
const TIMESTAMP = /^(?:(\d{1,3}):)?([0-5]\d):([0-5]\d)[.,](\d{3})$/;

function seconds(text: string): number | null {
  const match = TIMESTAMP.exec(text.trim());
  if (!match) return null;
  return Number(match[1] ?? 0) * 3600 + Number(match[2]) * 60 + Number(match[3]) + Number(match[4]) / 1000;
}

export class TranscriptError extends Error {
  name = "TranscriptError";
}

/** Drops markup such as <v Speaker> or <b> from a cue's text. */
function plainCueText(lines: string[]): string {
  return lines
    .join("\n")
    .replace(/<[^>]*>/g, "")
    .trim();
}

/**
 * Parses a WebVTT or SRT document into cues. Throws TranscriptError naming
 * the first problem (with its line number) for anything else.
 */
export function parseTranscript(text: string): { format: TranscriptFormat; cues: Cue[] } {
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = source.split("\n");
  const format: TranscriptFormat = /^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? "") ? "vtt" : "srt";
  const cues: Cue[] = [];
  let index = format === "vtt" ? 1 : 0;
  // WebVTT: header lines until the first blank line.
  if (format === "vtt") while (index < lines.length && lines[index].trim() !== "") index++;
  while (index < lines.length) {
    while (index < lines.length && lines[index].trim() === "") index++;
    if (index >= lines.length) break;
    const blockStart = index;
    const block: string[] = [];
    while (index < lines.length && lines[index].trim() !== "") block.push(lines[index++]);
    if (format === "vtt" && /^(NOTE|STYLE|REGION)(\s|$)/.test(block[0])) continue;
    const timingAt = block.findIndex((line) => line.includes("-->"));
    const expected = format === "srt" ? 1 : timingAt === 1 ? 1 : 0;
    if (format === "srt" && !/^\d+$/.test(block[0].trim())) {
      throw new TranscriptError(`Line ${blockStart + 1}: an SRT cue starts with its number (a WebVTT file starts with the line WEBVTT).`);
    }
    if (timingAt !== expected) throw new TranscriptError(`Line ${blockStart + 1}: expected a timing line such as 00:00:01.000 --> 00:00:04.000.`);
    const [from, rest = ""] = block[timingAt].split("-->");
    const to = rest.trim().split(/\s+/)[0] ?? "";
    const start = seconds(from);
    const end = seconds(to);
    if (start === null || end === null || end < start) {
      throw new TranscriptError(`Line ${blockStart + timingAt + 1}: "${block[timingAt].slice(0, 60)}" is not a valid timing (start --> end).`);
    }
    cues.push({ start, end, text: plainCueText(block.slice(timingAt + 1)) });
  }
  if (cues.length === 0) throw new TranscriptError("The transcript has no cues: upload a WebVTT (.vtt) or SRT (.srt) file with timed text.");
  return { format, cues };
}

// ---------------------------------------------------------------- chapters

export interface Chapter {
  startTime: number;
  title: string;
  img?: string;
  url?: string;
}

export class ChaptersError extends Error {
  name = "ChaptersError";
}

export const MAX_CHAPTERS = 200;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * Checks chapters as the episode form posts them (a JSON array, or a
 * Podcasting 2.0 chapters document with a `chapters` array) and returns them
 * sorted by start time. Times must fit the episode's length when given.
 */
export function parseChapters(json: string, durationSeconds?: number): Chapter[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ChaptersError("The chapters are not valid JSON.");
  }
  if (value && typeof value === "object" && !Array.isArray(value) && Array.isArray((value as { chapters?: unknown }).chapters)) {
    value = (value as { chapters: unknown[] }).chapters;
  }
  if (!Array.isArray(value)) throw new ChaptersError("The chapters must be a list of { startTime, title } entries.");
  if (value.length > MAX_CHAPTERS) throw new ChaptersError(`Keep to at most ${MAX_CHAPTERS} chapters.`);
  const chapters = value.map((entry: unknown, index): Chapter => {
    const n = index + 1;
    if (!entry || typeof entry !== "object") throw new ChaptersError(`Chapter ${n} must be an object with startTime and title.`);
    const { startTime, title, img, url } = entry as Record<string, unknown>;
    if (typeof startTime !== "number" || !Number.isFinite(startTime) || startTime < 0)
      throw new ChaptersError(`Chapter ${n}: startTime must be a number of seconds, 0 or more.`);
    if (durationSeconds !== undefined && startTime > durationSeconds)
      throw new ChaptersError(`Chapter ${n} starts after the episode ends (${Math.round(durationSeconds)} s).`);
    if (typeof title !== "string" || !title.trim() || title.length > 200) throw new ChaptersError(`Chapter ${n}: give it a title of up to 200 characters.`);
    if (img !== undefined && (typeof img !== "string" || !isHttpUrl(img))) throw new ChaptersError(`Chapter ${n}: img must be an http(s) address.`);
    if (url !== undefined && (typeof url !== "string" || !isHttpUrl(url))) throw new ChaptersError(`Chapter ${n}: url must be an http(s) address.`);
    return { startTime, title: title.trim(), ...(img ? { img } : {}), ...(url ? { url } : {}) };
  });
  return chapters.sort((a, b) => a.startTime - b.startTime);
}
