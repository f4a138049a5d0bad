/**
 * Generates the demo stream's programme into prisma/seed-assets/programme/: eight short
 * instrumental tracks by fictional campus bands and programme.json, which names each
 * track's artist and title (the demo stream sends them as "Artist - Title").
 *
 * The music is synthesised here, note by note (drums, bass, chords and a melody from a
 * seeded PRNG), so it is the project's own and deterministic; ffmpeg encodes it to MP3
 * (mono, 64 kb/s constant, like the bundled episodes the demo stream used to play).
 *
 *   npx tsx scripts/make-demo-programme.ts
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "prisma", "seed-assets", "programme");
const RATE = 44_100;

interface TrackSpec {
  artist: string;
  title: string;
  seconds: number;
  bpm: number;
  /** MIDI note of the key's root. */
  root: number;
  minor: boolean;
  /** Chord roots as scale degrees (0-6), one per bar, looped. */
  progression: number[];
  drums: "four" | "backbeat" | "half" | "none";
  seed: number;
}

// Fictional artists and titles; 28-40 s each, long enough that the stream follower (which
// coalesces title changes) reports every one of them.
const TRACKS: TrackSpec[] = [
  {
    artist: "Senja Kolektif",
    title: "Hujan di Kaliurang",
    seconds: 34,
    bpm: 92,
    root: 57,
    minor: true,
    progression: [0, 5, 2, 6],
    drums: "backbeat",
    seed: 11,
  },
  { artist: "The Overpass", title: "Late Bus Home", seconds: 30, bpm: 118, root: 60, minor: false, progression: [0, 4, 5, 3], drums: "four", seed: 23 },
  { artist: "Kopi Tubruk Trio", title: "Pagi Lagi", seconds: 32, bpm: 104, root: 62, minor: false, progression: [0, 3, 4, 0], drums: "backbeat", seed: 37 },
  { artist: "Moonlit Lab", title: "Study Break", seconds: 36, bpm: 80, root: 55, minor: true, progression: [0, 3, 6, 4], drums: "half", seed: 41 },
  { artist: "Lampu Kota", title: "Neon Gejayan", seconds: 30, bpm: 124, root: 58, minor: true, progression: [0, 6, 5, 6], drums: "four", seed: 53 },
  { artist: "Paper Planes", title: "Graduation Day", seconds: 34, bpm: 100, root: 64, minor: false, progression: [0, 5, 3, 4], drums: "backbeat", seed: 67 },
  { artist: "Rimba Sonik", title: "Sawah dan Sinyal", seconds: 28, bpm: 110, root: 59, minor: true, progression: [0, 2, 3, 4], drums: "four", seed: 71 },
  { artist: "Nada Kos", title: "Mie Instan Jam Dua", seconds: 38, bpm: 72, root: 53, minor: false, progression: [0, 4, 5, 3], drums: "none", seed: 83 },
];

/** mulberry32: a tiny seeded PRNG, so every run writes the same notes. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];
const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

function render(spec: TrackSpec): Float32Array {
  const length = spec.seconds * RATE;
  const out = new Float32Array(length);
  const rand = prng(spec.seed);
  const noise = prng(spec.seed * 7 + 1);
  const scale = spec.minor ? MINOR : MAJOR;
  const note = (degree: number, octave = 0) => spec.root + 12 * (octave + Math.floor(degree / 7)) + scale[((degree % 7) + 7) % 7];
  const beat = 60 / spec.bpm;
  const bar = beat * 4;

  const add = (start: number, seconds: number, voice: (t: number) => number) => {
    const from = Math.floor(start * RATE);
    const to = Math.min(length, from + Math.floor(seconds * RATE));
    for (let i = Math.max(0, from); i < to; i++) out[i] += voice((i - from) / RATE);
  };

  const bars = Math.ceil(spec.seconds / bar);
  for (let b = 0; b < bars; b++) {
    const start = b * bar;
    const degree = spec.progression[b % spec.progression.length];
    const chord = [note(degree), note(degree + 2), note(degree + 4)];
    // Pad: the chord, softly swelling over the bar.
    for (const midi of chord) {
      const f = hz(midi);
      add(start, bar, (t) => {
        const env = Math.min(1, t / 0.4) * Math.min(1, (bar - t) / 0.3);
        return 0.05 * env * (Math.sin(2 * Math.PI * f * t) + 0.3 * Math.sin(2 * Math.PI * f * 1.003 * 2 * t));
      });
    }
    // Bass: the chord's root on each beat, a few harmonics, plucked.
    for (let k = 0; k < 4; k++) {
      const f = hz(note(degree, -2));
      const offbeat = spec.drums === "four" && k % 2 === 1 ? beat / 2 : 0;
      add(start + k * beat + offbeat, beat * 0.9, (t) => {
        const env = Math.exp(-t * 3) * Math.min(1, t / 0.005);
        return 0.22 * env * (Math.sin(2 * Math.PI * f * t) + 0.4 * Math.sin(4 * Math.PI * f * t) + 0.15 * Math.sin(6 * Math.PI * f * t));
      });
    }
    // Melody: eighth notes on the scale, wandering by small steps, with rests.
    let step = degree + 7;
    for (let e = 0; e < 8; e++) {
      if (rand() < 0.3 || b % 8 === 7) continue;
      step += Math.round((rand() - 0.5) * 4);
      step = Math.max(degree + 4, Math.min(degree + 12, step));
      const f = hz(note(step));
      const held = beat / 2 + (rand() < 0.25 ? beat / 2 : 0);
      add(start + (e * beat) / 2, held, (t) => {
        const env = Math.min(1, t / 0.01) * Math.exp(-t * 2.5) * Math.min(1, (held - t) / 0.02);
        const phase = (f * t) % 1;
        const triangle = 4 * Math.abs(phase - 0.5) - 1;
        return 0.11 * env * (0.7 * triangle + 0.3 * Math.sin(2 * Math.PI * f * t));
      });
    }
    // Drums.
    if (spec.drums === "none") continue;
    for (let k = 0; k < 4; k++) {
      const at = start + k * beat;
      const kick = spec.drums === "four" || k === 0 || (spec.drums === "backbeat" && k === 2);
      if (kick && !(spec.drums === "half" && k !== 0)) {
        add(at, 0.35, (t) => 0.5 * Math.exp(-t * 9) * Math.sin(2 * Math.PI * (45 * t + (75 / 20) * (1 - Math.exp(-t * 20)))));
      }
      const snare = spec.drums === "half" ? k === 2 : k % 2 === 1;
      if (snare) add(at, 0.2, (t) => Math.exp(-t * 20) * (0.16 * (noise() * 2 - 1) + 0.12 * Math.sin(2 * Math.PI * 190 * t)));
      for (const half of [0, 0.5]) {
        let previous = 0;
        add(at + half * beat, 0.05, (t) => {
          const white = noise() * 2 - 1;
          const high = white - previous;
          previous = white;
          return 0.05 * Math.exp(-t * 70) * high;
        });
      }
    }
  }

  // Fades, then normalise to -1 dBFS.
  let peak = 0;
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    out[i] *= Math.min(1, t / 1.5, (spec.seconds - t) / 2);
    peak = Math.max(peak, Math.abs(out[i]));
  }
  const gain = peak > 0 ? 0.89 / peak : 1;
  for (let i = 0; i < length; i++) out[i] *= gain;
  return out;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function main(): void {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const tracks = TRACKS.map((spec, index) => {
    const samples = render(spec);
    const pcm = Buffer.alloc(samples.length * 2);
    for (let i = 0; i < samples.length; i++) pcm.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i])) * 32767), i * 2);
    const file = `programme/${String(index + 1).padStart(2, "0")}-${slug(spec.title)}.mp3`;
    execFileSync(
      "ffmpeg",
      [
        ...["-hide_banner", "-loglevel", "error", "-y", "-f", "s16le", "-ar", String(RATE), "-ac", "1", "-i", "pipe:0"],
        ...["-map_metadata", "-1", "-c:a", "libmp3lame", "-b:a", "64k", "-id3v2_version", "0", "-write_xing", "0"],
        ...["-fflags", "+bitexact", "-flags:a", "+bitexact", join(OUT, "..", file)],
      ],
      { input: pcm, stdio: ["pipe", "inherit", "inherit"] },
    );
    console.log(`${file}: ${spec.artist} - ${spec.title} (${spec.seconds} s)`);
    return { artist: spec.artist, title: spec.title, file, durationSeconds: spec.seconds };
  });
  writeFileSync(join(OUT, "programme.json"), `${JSON.stringify({ tracks }, null, 2)}\n`);
}

main();
