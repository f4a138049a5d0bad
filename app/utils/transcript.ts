import { keyedMessage } from "~/i18n/keyed";
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

/**
 * Drops markup such as <v Speaker> or <b> from a cue's text. Scanned by hand: /<[^>]*>/g rescans
 * the rest of the text from every "<" that has no ">" after it (minutes for 2 MB of "<").
 */
function plainCueText(lines: string[]): string {
  const text = lines.join("\n");
  let plain = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf("<", from);
    const close = open === -1 ? -1 : text.indexOf(">", open);
    // No tag left (a "<" never closed is text, as before).
    if (close === -1) return (plain + text.slice(from)).trim();
    plain += text.slice(from, open);
    from = close + 1;
  }
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
      throw new TranscriptError(keyedMessage("forms.transcriptSrtNumber", { line: blockStart + 1 }));
    }
    if (timingAt !== expected) throw new TranscriptError(keyedMessage("forms.transcriptTimingExpected", { line: blockStart + 1 }));
    const [from, rest = ""] = block[timingAt].split("-->");
    const to = rest.trim().split(/\s+/)[0] ?? "";
    const start = seconds(from);
    const end = seconds(to);
    if (start === null || end === null || end < start) {
      throw new TranscriptError(keyedMessage("forms.transcriptTimingInvalid", { line: blockStart + timingAt + 1, timing: block[timingAt].slice(0, 60) }));
    }
    cues.push({ start, end, text: plainCueText(block.slice(timingAt + 1)) });
  }
  if (cues.length === 0) throw new TranscriptError(keyedMessage("forms.transcriptNoCues"));
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
    throw new ChaptersError(keyedMessage("forms.chaptersNotJson"));
  }
  if (value && typeof value === "object" && !Array.isArray(value) && Array.isArray((value as { chapters?: unknown }).chapters)) {
    value = (value as { chapters: unknown[] }).chapters;
  }
  if (!Array.isArray(value)) throw new ChaptersError(keyedMessage("forms.chaptersNotList"));
  if (value.length > MAX_CHAPTERS) throw new ChaptersError(keyedMessage("forms.chaptersTooMany", { max: MAX_CHAPTERS }));
  const chapters = value.map((entry: unknown, index): Chapter => {
    const n = index + 1;
    if (!entry || typeof entry !== "object") throw new ChaptersError(keyedMessage("forms.chapterNotObject", { n }));
    const { startTime, title, img, url } = entry as Record<string, unknown>;
    if (typeof startTime !== "number" || !Number.isFinite(startTime) || startTime < 0)
      throw new ChaptersError(keyedMessage("forms.chapterStartInvalid", { n }));
    if (durationSeconds !== undefined && startTime > durationSeconds)
      throw new ChaptersError(keyedMessage("forms.chapterAfterEnd", { n, seconds: Math.round(durationSeconds) }));
    if (typeof title !== "string" || !title.trim() || title.length > 200) throw new ChaptersError(keyedMessage("forms.chapterTitleInvalid", { n }));
    if (img !== undefined && (typeof img !== "string" || !isHttpUrl(img))) throw new ChaptersError(keyedMessage("forms.chapterImgInvalid", { n }));
    if (url !== undefined && (typeof url !== "string" || !isHttpUrl(url))) throw new ChaptersError(keyedMessage("forms.chapterUrlInvalid", { n }));
    return { startTime, title: title.trim(), ...(img ? { img } : {}), ...(url ? { url } : {}) };
  });
  return chapters.sort((a, b) => a.startTime - b.startTime);
}
