import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { framesDuration, Mp3FrameReader, readMp3Frames } from "./mp3-frames.server";

// Checked against what ffmpeg writes and what ffprobe counts, not against our own idea of MP3.
const FFMPEG = "/usr/bin/ffmpeg";
describe.skipIf(!existsSync(FFMPEG))("MP3 frames as ffmpeg writes them", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mp3-frames-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const encode = (name: string, args: string[]) => {
    const file = path.join(dir, name);
    execFileSync(FFMPEG, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=3", ...args, "-y", file]);
    const packets = Number(
      execFileSync("ffprobe", ["-v", "error", "-count_packets", "-select_streams", "a:0", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", file])
        .toString()
        .trim(),
    );
    return { bytes: readFileSync(file), packets };
  };

  it.each([
    ["MPEG-1 layer III, 128 kb/s CBR, 44.1 kHz", "a.mp3", ["-ar", "44100", "-b:a", "128k"], 44100],
    ["MPEG-1 layer III, VBR, 48 kHz", "b.mp3", ["-ar", "48000", "-q:a", "4"], 48000],
    ["MPEG-2 layer III, 32 kb/s, 22.05 kHz", "c.mp3", ["-ar", "22050", "-b:a", "32k"], 22050],
    ["MPEG-1 layer II, 192 kb/s", "d.mp2", ["-ar", "44100", "-c:a", "mp2", "-b:a", "192k"], 44100],
  ])("%s: every frame, the ID3 tag and Xing header left out", (_name, file, args, rate) => {
    const { bytes, packets } = encode(file, args);
    const frames = readMp3Frames(bytes);
    expect(frames).toHaveLength(packets);
    expect(frames.every((frame) => frame.sampleRate === rate && frame.data[0] === 0xff)).toBe(true);
    expect(framesDuration(frames)).toBeGreaterThan(2.95);
    expect(framesDuration(frames)).toBeLessThan(3.2);
  });

  it("finds the same frames in chunks of any size, skipping garbage between them", () => {
    const { bytes } = encode("e.mp3", ["-b:a", "64k"]);
    const whole = readMp3Frames(bytes);
    const noisy = Buffer.concat([Buffer.from([0xff, 0xfb, 0x00, 0x12, 0xff]), bytes]);
    const reader = new Mp3FrameReader();
    const chunked = [];
    for (let at = 0; at < noisy.length; at += 1 + (at % 997)) chunked.push(...reader.push(noisy.subarray(at, at + 1 + (at % 997))));
    chunked.push(...reader.end());
    expect(chunked.map((frame) => frame.data.toString("hex"))).toEqual(whole.map((frame) => frame.data.toString("hex")));
  });
});
