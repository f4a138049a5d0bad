import { splitArtistTitle } from "./song-history.server";
import { spreadsheetSafe } from "~/services/csv.server";
import { sanitizeEmbed } from "~/services/embed-sanitizer.server";
import { plainText } from "~/services/news.server";
import { isEmailAddress } from "~/utils/forms/registration";
import { parseChapters, parseTranscript } from "~/utils/transcript";

// Every parser that reads uploaded or remote text, on input built to make a backtracking pattern
// rescan it (runs of "<", spaces, dots and dashes with the character that would end the match left
// out), at the largest size the app accepts. Linear code finishes each in milliseconds; the
// patterns these replaced took seconds to hours (/<[^>]*>/g over 2 MB of "<" runs for hours).
// The budget is generous on purpose: this is about the order of growth, not speed. It is this
// process's CPU time, not the clock: other test files loading the machine do not count.
const BUDGET_MS = 1_500;
const MB = 1024 * 1024;

function expectQuick(label: string, run: () => unknown): void {
  const started = process.cpuUsage();
  run();
  const { user, system } = process.cpuUsage(started);
  expect((user + system) / 1000, label).toBeLessThan(BUDGET_MS);
}

const TRANSCRIPT_MAX = 2 * MB;
const fill = (pattern: string, bytes: number) => pattern.repeat(Math.floor(bytes / pattern.length));

describe("parsers of uploaded and remote text take linear time", () => {
  it.each([
    ["a cue of nothing but '<'", "<"],
    ["a cue of '<' and spaces", "< "],
    ["a cue of unclosed tags", "<v Speaker"],
    ["a cue of '-->' with no timing", "-->"],
    ["a cue of spaces", " "],
  ])("transcripts (2 MB WebVTT and SRT): %s", (_label, pattern) => {
    const body = fill(pattern, TRANSCRIPT_MAX - 100);
    expectQuick("vtt", () => parseTranscript(`WEBVTT\n\n00:00.000 --> 00:01.000\n${body}\n`));
    expectQuick("srt", () => parseTranscript(`1\n00:00:00,000 --> 00:00:01,000\n${body}\n`));
  });

  it("keeps a cue's text and drops only its tags", () => {
    expect(parseTranscript("WEBVTT\n\n00:00.000 --> 00:01.000\n<v Ana>Hello</v> <b>there</b> 1 < 2\n").cues[0].text).toBe("Hello there 1 < 2");
  });

  it("chapters: a 64 KB JSON field of markup and long titles", () => {
    const title = fill("<", 60_000);
    expectQuick("chapters", () => expect(() => parseChapters(JSON.stringify([{ startTime: 0, title }]))).toThrow());
    expectQuick("chapters", () => expect(() => parseChapters(fill("[", 64 * 1024))).toThrow());
  });

  it("email addresses (a 2 MB public form field)", () => {
    for (const value of [`a@${fill(".", 2 * MB)}@`, `a@${fill("a.", 2 * MB)}`, `${fill("a", 2 * MB)}@`]) {
      expectQuick("email", () => expect(isEmailAddress(value)).toBe(false));
    }
    expect(["dj@spin.example", "a@b.c", "a@.b.c"].map(isEmailAddress)).toEqual([true, true, true]);
    expect(["a@b.", "a@.b", "@b.c", "a@b@c.d", "a b@c.d", "a@bc"].map(isEmailAddress)).toEqual([false, false, false, false, false, false]);
  });

  it("embed code (at its 4,000-character limit, pasted many times over)", () => {
    for (const code of [`<iframe${fill(" ", 3990)}`, `<iframe ${fill("a ", 3990)}`, `<iframe src="https://open.spotify.com/x"${fill(" ", 3950)}/`]) {
      expectQuick("embed", () => {
        for (let i = 0; i < 40; i++) expect(sanitizeEmbed(code, ["open.spotify.com"]).ok).toBe(false);
      });
    }
    expect(sanitizeEmbed(`<iframe src="https://open.spotify.com/embed/x"  /></iframe>`, ["open.spotify.com"]).ok).toBe(true);
  });

  it("stream titles split into artist and title", () => {
    for (const raw of [`a${fill(" ", 200_000)}b`, `${fill("a - ", 200_000)}\n`, fill(" -", 200_000), fill("-", 200_000)]) {
      expectQuick("title", () => splitArtistTitle(raw));
    }
    expect(splitArtistTitle("Daft Punk - One More Time")).toEqual({ artist: "Daft Punk", title: "One More Time" });
    expect(splitArtistTitle("A -  B – C")).toEqual({ artist: "A", title: "B – C" });
    expect(splitArtistTitle("Intro -Live")).toEqual({ artist: "", title: "Intro -Live" });
    expect(splitArtistTitle(" - Title")).toEqual({ artist: "", title: " - Title" });
  });

  it("news API text (2 MB fields)", () => {
    for (const value of [fill("<", 2 * MB), `&#x${fill("0", 2 * MB)}`, fill("&a", 2 * MB), fill("< >", 2 * MB), fill(" \t", 2 * MB)]) {
      expectQuick("news", () => plainText(value, 500));
    }
  });

  it("CSV cells (a 2 MB title of separators and formula starts)", () => {
    for (const value of [fill(";", 2 * MB), fill("; =", 2 * MB), fill('\t"', 2 * MB)]) expectQuick("csv", () => spreadsheetSafe(value));
  });
});
