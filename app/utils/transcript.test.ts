import { describe, expect, it } from "vitest";
import { ChaptersError, parseChapters, parseTranscript, TranscriptError } from "./transcript";

describe("transcripts", () => {
  it("reads WebVTT (headers, NOTE blocks, cue ids, settings, voice tags) and SRT", () => {
    const vtt = parseTranscript(
      "\uFEFFWEBVTT - demo\r\nKind: captions\r\n\r\nNOTE hi\r\n\r\nintro\r\n00:01.000 --> 00:02.500 align:start\r\n<v Rina>Halo</v>\r\n\r\n01:00:00.000 --> 01:00:01.000\r\nlate\r\n",
    );
    expect(vtt).toEqual({
      format: "vtt",
      cues: [
        { start: 1, end: 2.5, text: "Halo" },
        { start: 3600, end: 3601, text: "late" },
      ],
    });
    const srt = parseTranscript("1\n00:00:01,000 --> 00:00:02,000\nsatu\ndua\n\n2\n00:00:03,000 --> 00:00:04,000\ntiga\n");
    expect(srt.format).toBe("srt");
    expect(srt.cues.map((cue) => cue.text)).toEqual(["satu\ndua", "tiga"]);
  });

  it.each([
    ["", "transcriptNoCues"],
    ["WEBVTT\n", "transcriptNoCues"],
    ["WEBVTT\n\n00:00:02.000 --> 00:00:01.000\nback\n", "transcriptTimingInvalid"],
    ["WEBVTT\n\n00:00:61.000 --> 00:01:02.000\nx\n", "transcriptTimingInvalid"],
    ["WEBVTT\n\njust text\n", "transcriptTimingExpected"],
    ["1\n00:00:01.000 -> 00:00:02.000\nx\n", "transcriptTimingExpected"],
    ["hello\n00:00:01,000 --> 00:00:02,000\nx\n", "transcriptSrtNumber"],
  ])("refuses %j", (text, message) => {
    expect(() => parseTranscript(text)).toThrow(TranscriptError);
    expect(() => parseTranscript(text)).toThrow(message);
  });
});

describe("chapters", () => {
  it("accepts a list or a chapters document, sorted by start", () => {
    expect(parseChapters('{"version":"1.2.0","chapters":[{"startTime":9,"title":" B "},{"startTime":0,"title":"A","url":"https://x.example"}]}')).toEqual([
      { startTime: 0, title: "A", url: "https://x.example" },
      { startTime: 9, title: "B" },
    ]);
  });

  it.each([
    ["nope", "chaptersNotJson"],
    ['"text"', "chaptersNotList"],
    ["[1]", "chapterNotObject"],
    ['[{"startTime":"0","title":"a"}]', "chapterStartInvalid"],
    ['[{"startTime":0,"title":""}]', "chapterTitleInvalid"],
    ['[{"startTime":0,"title":"a","img":"data:image/png;base64,AAAA"}]', "chapterImgInvalid"],
    ['[{"startTime":0,"title":"a","url":"javascript:alert(1)"}]', "chapterUrlInvalid"],
    ['[{"startTime":1e400,"title":"a"}]', "chapterStartInvalid"],
  ])("refuses %j", (json, message) => {
    expect(() => parseChapters(json)).toThrow(ChaptersError);
    expect(() => parseChapters(json)).toThrow(message);
  });

  it("refuses a chapter after the end of the episode", () => {
    expect(() => parseChapters('[{"startTime":100,"title":"a"}]', 60)).toThrow("chapterAfterEnd");
  });
});
