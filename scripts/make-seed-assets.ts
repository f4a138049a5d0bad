/**
 * Generates the station's seed content into prisma/seed-assets/:
 * the jumbotron artwork, podcast covers, crew slider images, crew member
 * portraits, four short podcast intros and a manifest describing them.
 *
 * Everything is drawn or synthesised here (SVG rendered with sharp, speech by
 * espeak-ng, tone bed by sox, MP3 by lame), and is deterministic: the same
 * tools give the same bytes on every run.
 *
 *   npx tsx scripts/make-seed-assets.ts
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "prisma", "seed-assets");

const STATION = { name: "SPIN RADIO", tagline: "Live from campus, all day long" } as const;

const PINK = "#ff3d6e";
const VIOLET = "#7c4dff";

// Nimbus Sans is metric-compatible with Helvetica; DejaVu Sans is the fallback.
const SANS = "'Nimbus Sans', 'DejaVu Sans', sans-serif";

// ---------------------------------------------------------------------------
// Small helpers

/** mulberry32: a tiny seeded PRNG, so every run draws the same pictures. */
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

type Rand = () => number;

function between(rand: Rand, min: number, max: number): number {
  return min + (max - min) * rand();
}

function pick<T>(rand: Rand, items: readonly T[]): T {
  const item = items[Math.floor(rand() * items.length)];
  if (item === undefined) throw new Error("pick() from an empty list");
  return item;
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Rounds coordinates so the SVG text stays short and stable. */
function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function hsl(h: number, s: number, l: number): string {
  return `hsl(${Math.round(((h % 360) + 360) % 360)}, ${Math.round(s)}%, ${Math.round(l)}%)`;
}

// Advance widths of Helvetica-Bold (= Nimbus Sans Bold), per 1000 units.
const BOLD_WIDTHS: Record<string, number> = {
  " ": 278,
  "!": 333,
  "'": 238,
  "&": 722,
  ",": 278,
  "-": 333,
  ".": 278,
  "/": 278,
  ":": 333,
  "·": 278,
  "•": 350,
  "0": 556,
  "1": 556,
  "2": 556,
  "3": 556,
  "4": 556,
  "5": 556,
  "6": 556,
  "7": 556,
  "8": 556,
  "9": 556,
  A: 722,
  B: 722,
  C: 722,
  D: 722,
  E: 667,
  F: 611,
  G: 778,
  H: 722,
  I: 278,
  J: 556,
  K: 722,
  L: 611,
  M: 833,
  N: 722,
  O: 778,
  P: 667,
  Q: 778,
  R: 722,
  S: 667,
  T: 611,
  U: 722,
  V: 667,
  W: 944,
  X: 667,
  Y: 667,
  Z: 611,
  a: 556,
  b: 611,
  c: 556,
  d: 611,
  e: 556,
  f: 333,
  g: 611,
  h: 611,
  i: 278,
  j: 278,
  k: 556,
  l: 278,
  m: 889,
  n: 611,
  o: 611,
  p: 611,
  q: 611,
  r: 389,
  s: 556,
  t: 333,
  u: 611,
  v: 556,
  w: 778,
  x: 556,
  y: 556,
  z: 500,
};

function textWidth(text: string, size: number, letterSpacing = 0): number {
  let units = 0;
  for (const ch of text) units += BOLD_WIDTHS[ch] ?? 600;
  return (units / 1000) * size + letterSpacing * Math.max(0, [...text].length - 1);
}

async function writeJpeg(svg: string, file: string, quality: number, maxBytes: number): Promise<void> {
  const image = sharp(Buffer.from(svg), { density: 72 });
  // Step the quality down if a busy picture would go over its size budget.
  for (let q = quality; q >= 55; q -= 5) {
    const buffer = await image.clone().flatten({ background: "#000000" }).jpeg({ quality: q, mozjpeg: true, chromaSubsampling: "4:2:0" }).toBuffer();
    if (buffer.length <= maxBytes || q - 5 < 55) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, buffer);
      return;
    }
  }
}

function svgDoc(width: number, height: number, body: string, viewBox?: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` + `viewBox="${viewBox ?? `0 0 ${width} ${height}`}">${body}</svg>`;
}

// ---------------------------------------------------------------------------
// 1. Jumbotron

function jumbotronSvg(): string {
  const W = 1920;
  const H = 1080;
  const rand = prng(20261120);
  const parts: string[] = [];

  parts.push(`<defs>
    <radialGradient id="glowPink" cx="1450" cy="470" r="900" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${PINK}" stop-opacity="0.55"/>
      <stop offset="0.45" stop-color="${PINK}" stop-opacity="0.12"/>
      <stop offset="1" stop-color="${PINK}" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="glowViolet" cx="250" cy="1050" r="1000" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${VIOLET}" stop-opacity="0.55"/>
      <stop offset="0.5" stop-color="${VIOLET}" stop-opacity="0.12"/>
      <stop offset="1" stop-color="${VIOLET}" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="accent" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="${VIOLET}"/>
      <stop offset="1" stop-color="${PINK}"/>
    </linearGradient>
    <linearGradient id="accentWide" x1="0" y1="0" x2="${W}" y2="0" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${VIOLET}"/>
      <stop offset="0.55" stop-color="${PINK}"/>
      <stop offset="1" stop-color="#ff8a5c"/>
    </linearGradient>
    <linearGradient id="textGrad" x1="140" y1="0" x2="1000" y2="0" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${PINK}"/>
      <stop offset="1" stop-color="#b26bff"/>
    </linearGradient>
    <linearGradient id="labelGrad" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${PINK}"/>
      <stop offset="1" stop-color="${VIOLET}"/>
    </linearGradient>
    <linearGradient id="fadeBottom" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0a0912" stop-opacity="0"/>
      <stop offset="1" stop-color="#0a0912" stop-opacity="0.85"/>
    </linearGradient>
    <filter id="grain" x="0" y="0" width="100%" height="100%">
      <feTurbulence type="fractalNoise" baseFrequency="0.85" numOctaves="2" seed="7" result="noise"/>
      <feColorMatrix in="noise" type="matrix"
        values="0 0 0 0 1  0 0 0 0 1  0 0 0 0 1  0 0 0 0.05 0"/>
    </filter>
    <filter id="blur" x="-20%" y="-20%" width="140%" height="140%">
      <feGaussianBlur stdDeviation="18"/>
    </filter>
  </defs>`);

  parts.push(`<rect width="${W}" height="${H}" fill="#0a0912"/>`);
  parts.push(`<rect width="${W}" height="${H}" fill="url(#glowViolet)"/>`);
  parts.push(`<rect width="${W}" height="${H}" fill="url(#glowPink)"/>`);

  // Radio waves: rings around the record, fading outwards, a few broken into arcs.
  const cx = 1450;
  const cy = 470;
  for (let i = 0; i < 16; i++) {
    const r = 380 + i * 42;
    const opacity = Math.max(0.04, 0.42 - i * 0.025);
    const dash = i % 3 === 1 ? ` stroke-dasharray="${n(r * 0.9)} ${n(r * 0.35)}"` : "";
    const rot = n(between(rand, 0, 360));
    parts.push(
      `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="url(#accent)" stroke-width="${i % 4 === 0 ? 3 : 1.5}" ` +
        `stroke-opacity="${opacity.toFixed(3)}"${dash} transform="rotate(${rot} ${cx} ${cy})"/>`,
    );
  }

  // The record: a soft glow, grooves, a gradient label.
  parts.push(`<circle cx="${cx}" cy="${cy + 20}" r="330" fill="#000" opacity="0.6" filter="url(#blur)"/>`);
  parts.push(`<circle cx="${cx}" cy="${cy}" r="320" fill="#121019"/>`);
  for (let r = 130; r < 316; r += 7) {
    parts.push(
      `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="#ffffff" stroke-opacity="${(0.03 + (r % 21 === 4 ? 0.04 : 0)).toFixed(2)}" stroke-width="1"/>`,
    );
  }
  // Light reflection across the grooves.
  parts.push(
    `<path d="M ${cx} ${cy} L ${n(cx + 320 * Math.cos(-1.15))} ${n(cy + 320 * Math.sin(-1.15))} A 320 320 0 0 1 ${n(cx + 320 * Math.cos(-0.75))} ${n(cy + 320 * Math.sin(-0.75))} Z" fill="#ffffff" opacity="0.045"/>`,
  );
  parts.push(
    `<path d="M ${cx} ${cy} L ${n(cx + 320 * Math.cos(2.0))} ${n(cy + 320 * Math.sin(2.0))} A 320 320 0 0 1 ${n(cx + 320 * Math.cos(2.4))} ${n(cy + 320 * Math.sin(2.4))} Z" fill="#ffffff" opacity="0.03"/>`,
  );
  parts.push(`<circle cx="${cx}" cy="${cy}" r="118" fill="url(#labelGrad)"/>`);
  parts.push(`<circle cx="${cx}" cy="${cy}" r="118" fill="none" stroke="#ffffff" stroke-opacity="0.25" stroke-width="2"/>`);
  parts.push(
    `<text x="${cx}" y="${cy - 30}" text-anchor="middle" font-family="${SANS}" font-weight="bold" font-size="30" letter-spacing="6" fill="#ffffff">SPIN</text>`,
  );
  parts.push(
    `<text x="${cx}" y="${cy + 55}" text-anchor="middle" font-family="${SANS}" font-weight="bold" font-size="18" letter-spacing="5" fill="#ffffff" fill-opacity="0.8">CAMPUS · 24/7</text>`,
  );
  parts.push(`<circle cx="${cx}" cy="${cy}" r="11" fill="#0a0912"/>`);

  // Flowing accent waves behind everything in the lower half.
  const wave = (baseY: number, amp: number, freq: number, phase: number): string => {
    let d = "";
    for (let x = -20; x <= W + 20; x += 20) {
      const y = baseY + amp * Math.sin(x * freq + phase) * (0.6 + 0.4 * Math.sin(x * freq * 0.37 + phase * 2)) + amp * 0.25 * Math.sin(x * freq * 2.3 + phase);
      d += `${d === "" ? "M" : " L"} ${x} ${n(y)}`;
    }
    return d;
  };
  const waves: Array<[number, number, number, number, number, number]> = [
    [860, 70, 0.0042, 0.4, 0.55, 3],
    [875, 95, 0.0031, 2.1, 0.35, 2],
    [890, 55, 0.0056, 4.0, 0.25, 2],
    [850, 120, 0.0024, 5.2, 0.18, 1.5],
  ];
  for (const [baseY, amp, freq, phase, opacity, width] of waves) {
    parts.push(
      `<path d="${wave(baseY, amp, freq, phase)}" fill="none" stroke="url(#accentWide)" stroke-width="${width}" stroke-opacity="${opacity}" stroke-linecap="round"/>`,
    );
  }

  // Equaliser waveform along the bottom edge.
  const barW = 8;
  const gap = 6;
  const count = Math.floor(W / (barW + gap)) + 1;
  const baseY = 1000;
  for (let i = 0; i < count; i++) {
    const x = i * (barW + gap);
    const env = 0.25 + 0.75 * Math.abs(Math.sin(i * 0.045 + 0.3) * Math.cos(i * 0.013));
    const h = Math.max(6, 120 * env * between(rand, 0.35, 1));
    parts.push(
      `<rect x="${x}" y="${n(baseY - h)}" width="${barW}" height="${n(h * 1.6)}" rx="4" fill="url(#accentWide)" fill-opacity="${(0.35 + 0.5 * env).toFixed(2)}"/>`,
    );
  }
  parts.push(`<rect y="${H - 220}" width="${W}" height="220" fill="url(#fadeBottom)"/>`);

  // Type.
  const left = 140;
  const pillText = "ON AIR  ·  STREAMING 24/7";
  const pillW = textWidth(pillText, 22, 4) + 80;
  parts.push(
    `<rect x="${left}" y="246" width="${n(pillW)}" height="52" rx="26" fill="${PINK}" fill-opacity="0.14" stroke="${PINK}" stroke-opacity="0.6" stroke-width="1.5"/>`,
  );
  parts.push(`<circle cx="${left + 30}" cy="272" r="8" fill="${PINK}"/>`);
  parts.push(`<circle cx="${left + 30}" cy="272" r="14" fill="none" stroke="${PINK}" stroke-opacity="0.5" stroke-width="2"/>`);
  parts.push(
    `<text x="${left + 54}" y="280" font-family="${SANS}" font-weight="bold" font-size="22" letter-spacing="4" fill="#ffd3de" xml:space="preserve">${esc(pillText)}</text>`,
  );
  parts.push(`<text x="${left - 8}" y="520" font-family="${SANS}" font-weight="bold" font-size="236" letter-spacing="-6" fill="#ffffff">SPIN</text>`);
  parts.push(`<text x="${left - 8}" y="730" font-family="${SANS}" font-weight="bold" font-size="236" letter-spacing="-6" fill="url(#textGrad)">RADIO</text>`);
  parts.push(`<rect x="${left}" y="778" width="72" height="6" rx="3" fill="${PINK}"/>`);
  parts.push(`<text x="${left + 96}" y="796" font-family="${SANS}" font-size="42" fill="#e9e4f5">${esc(STATION.tagline)}</text>`);
  parts.push(
    `<text x="${left}" y="862" font-family="${SANS}" font-weight="bold" font-size="20" letter-spacing="7" fill="#9d96b8">MUSIC  ·  PODCASTS  ·  CAMPUS NEWS  ·  EVENTS</text>`,
  );

  parts.push(`<rect width="${W}" height="${H}" filter="url(#grain)"/>`);
  return svgDoc(W, H, parts.join("\n"));
}

// ---------------------------------------------------------------------------
// 2. Podcast covers

interface Episode {
  show: string;
  title: string;
  description: string;
}

const EPISODES: readonly Episode[] = [
  {
    show: "Ngopi Pagi",
    title: "Ngopi Pagi: Tips Bertahan di Minggu UTS",
    description:
      "Host pagi kami berbagi cara mengatur waktu belajar, tidur dan kopi selama minggu ujian tengah semester, lengkap dengan trik dari kakak tingkat.",
  },
  {
    show: "Indie Hour",
    title: "Indie Hour: Band Kampus yang Lagi Naik Daun",
    description: "Ngobrol santai bersama tiga band kampus tentang proses rekaman pertama, manggung di acara fakultas, dan mimpi tampil di festival besar.",
  },
  {
    show: "Campus Talk",
    title: "Campus Talk: Life After Graduation",
    description:
      "Recent graduates tell us what the first year after campus really looks like: job hunting, moving cities and the things they wish they had learned earlier.",
  },
  {
    show: "Suara Mahasiswa",
    title: "Suara Mahasiswa: Organisasi atau IPK?",
    description: "Aktif di organisasi atau fokus mengejar IPK? Dua ketua himpunan dan seorang dosen pembimbing berbagi pandangan mereka.",
  },
  {
    show: "Tech Corner",
    title: "Tech Corner: Belajar Coding dari Nol",
    description: "Dari tutorial gratis sampai proyek pertama, mahasiswa non-IT bercerita bagaimana mereka mulai belajar pemrograman di sela jadwal kuliah.",
  },
  {
    show: "Late Night Stories",
    title: "Late Night Stories: Cerita Anak Kos",
    description: "Kisah lucu, haru dan sedikit seram dari kehidupan kos-kosan, dikirim langsung oleh pendengar setia siaran malam.",
  },
  {
    show: "Kuliner Kampus",
    title: "Kuliner Kampus: Warung Legendaris Dekat Kampus",
    description: "Kami berburu warung makan paling legendaris di sekitar kampus dan bertanya rahasia menu andalan yang tak pernah sepi pembeli.",
  },
  {
    show: "Green Campus",
    title: "Green Campus: Small Habits, Big Impact",
    description: "Student volunteers share simple ways to cut plastic waste on campus, from refill stations to the weekly clothes swap.",
  },
  {
    show: "Sports Weekly",
    title: "Sports Weekly: Menuju Liga Futsal Antar Fakultas",
    description: "Rangkuman persiapan liga futsal antar fakultas tahun ini, prediksi juara, dan wawancara singkat dengan kapten tim favorit.",
  },
  {
    show: "Behind the Mic",
    title: "Behind the Mic: Sehari Bersama Kru SPIN RADIO",
    description: "Ikuti kru SPIN RADIO dari rapat redaksi pagi sampai siaran terakhir malam hari, dan lihat apa saja yang terjadi di balik layar.",
  },
];

interface CoverStyle {
  bg: string;
  fg: string; // small labels
  block: string; // title block background
  blockText: string;
  pattern: (rand: Rand) => string;
}

const COVER_STYLES: readonly CoverStyle[] = [
  // 1. Ngopi Pagi: morning sunburst.
  {
    bg: "#3d1f14",
    fg: "#ffe1c2",
    block: "#fff1e0",
    blockText: "#3d1f14",
    pattern: () => {
      const cx = 640;
      const cy = 400;
      const out: string[] = [];
      const rays = 28;
      for (let i = 0; i < rays; i += 2) {
        const a0 = (i / rays) * Math.PI * 2;
        const a1 = ((i + 1) / rays) * Math.PI * 2;
        out.push(
          `<path d="M ${cx} ${cy} L ${n(cx + 1500 * Math.cos(a0))} ${n(cy + 1500 * Math.sin(a0))} L ${n(cx + 1500 * Math.cos(a1))} ${n(cy + 1500 * Math.sin(a1))} Z" fill="#5a2c19"/>`,
        );
      }
      out.push(`<circle cx="${cx}" cy="${cy}" r="300" fill="#ff9f1c" opacity="0.18"/>`);
      out.push(`<circle cx="${cx}" cy="${cy}" r="235" fill="#ff9f1c"/>`);
      out.push(`<circle cx="${cx}" cy="${cy}" r="165" fill="#ffbf69"/>`);
      // A coffee cup in the sun.
      out.push(`<path d="M 560 370 L 720 370 L 705 500 C 700 525 680 535 660 535 L 620 535 C 600 535 580 525 575 500 Z" fill="#3d1f14"/>`);
      out.push(`<path d="M 714 400 C 770 395 770 475 705 470" fill="none" stroke="#3d1f14" stroke-width="16"/>`);
      out.push(`<rect x="540" y="540" width="200" height="14" rx="7" fill="#3d1f14"/>`);
      for (let i = 0; i < 3; i++) {
        const x = 600 + i * 40;
        out.push(
          `<path d="M ${x} 350 C ${x - 18} 325 ${x + 18} 305 ${x} 280 C ${x - 18} 255 ${x + 18} 235 ${x} 215" fill="none" stroke="#3d1f14" stroke-width="9" stroke-linecap="round" opacity="0.8"/>`,
        );
      }
      return out.join("");
    },
  },
  // 2. Indie Hour: two records.
  {
    bg: "#0d1b2a",
    fg: "#cfe3ff",
    block: "#ff5d8f",
    blockText: "#0d1b2a",
    pattern: () => {
      const out: string[] = [];
      const rec = (cx: number, cy: number, r: number, label: string): void => {
        out.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="#08121d"/>`);
        for (let rr = r * 0.38; rr < r - 6; rr += 9) {
          out.push(`<circle cx="${cx}" cy="${cy}" r="${n(rr)}" fill="none" stroke="#ffffff" stroke-opacity="0.07" stroke-width="1.5"/>`);
        }
        out.push(`<circle cx="${cx}" cy="${cy}" r="${n(r * 0.32)}" fill="${label}"/>`);
        out.push(`<circle cx="${cx}" cy="${cy}" r="${n(r * 0.04)}" fill="#0d1b2a"/>`);
      };
      for (let i = 0; i < 9; i++) {
        out.push(`<circle cx="680" cy="330" r="${460 + i * 60}" fill="none" stroke="#1d3557" stroke-width="2"/>`);
      }
      rec(330, 300, 230, "#2ec4b6");
      rec(680, 330, 330, "#ff5d8f");
      // tone arm resting on the big record
      out.push(`<path d="M 910 190 L 910 250 L 800 440" fill="none" stroke="#cfe3ff" stroke-width="14" stroke-linecap="round" stroke-linejoin="round"/>`);
      out.push(`<rect x="777" y="425" width="46" height="70" rx="8" fill="#cfe3ff" transform="rotate(30 800 460)"/>`);
      out.push(`<circle cx="910" cy="190" r="34" fill="#1d3557" stroke="#cfe3ff" stroke-width="8"/>`);
      out.push(`<circle cx="910" cy="190" r="10" fill="#cfe3ff"/>`);
      return out.join("");
    },
  },
  // 3. Campus Talk: Bauhaus tiles.
  {
    bg: "#f2e8cf",
    fg: "#264653",
    block: "#264653",
    blockText: "#f2e8cf",
    pattern: (rand) => {
      const colors = ["#264653", "#e76f51", "#e9c46a", "#2a9d8f", "#f2e8cf"];
      const out: string[] = [];
      const s = 250;
      for (let gy = 0; gy < 4; gy++) {
        for (let gx = 0; gx < 4; gx++) {
          const x = gx * s;
          const y = gy * s;
          const bg = pick(rand, colors);
          let fg = pick(rand, colors);
          while (fg === bg) fg = pick(rand, colors);
          out.push(`<rect x="${x}" y="${y}" width="${s}" height="${s}" fill="${bg}"/>`);
          const kind = Math.floor(rand() * 5);
          const corner = Math.floor(rand() * 4);
          const cxs = [x, x + s, x + s, x];
          const cys = [y, y, y + s, y + s];
          if (kind === 0) {
            // quarter circle from a corner
            const ccx = cxs[corner] ?? x;
            const ccy = cys[corner] ?? y;
            out.push(`<clipPath id="t${gx}${gy}"><rect x="${x}" y="${y}" width="${s}" height="${s}"/></clipPath>`);
            out.push(`<circle cx="${ccx}" cy="${ccy}" r="${s}" fill="${fg}" clip-path="url(#t${gx}${gy})"/>`);
          } else if (kind === 1) {
            out.push(`<circle cx="${x + s / 2}" cy="${y + s / 2}" r="${s * 0.38}" fill="${fg}"/>`);
          } else if (kind === 2) {
            // half circle on an edge
            const rot = corner * 90;
            out.push(
              `<path d="M ${x} ${y + s} A ${s / 2} ${s / 2} 0 0 1 ${x + s} ${y + s} Z" fill="${fg}" transform="rotate(${rot} ${x + s / 2} ${y + s / 2})"/>`,
            );
          } else if (kind === 3) {
            const rot = corner * 90;
            out.push(`<path d="M ${x} ${y} L ${x + s} ${y} L ${x} ${y + s} Z" fill="${fg}" transform="rotate(${rot} ${x + s / 2} ${y + s / 2})"/>`);
          } else {
            out.push(`<rect x="${x + s * 0.25}" y="${y + s * 0.25}" width="${s * 0.5}" height="${s * 0.5}" fill="${fg}"/>`);
            out.push(`<circle cx="${x + s / 2}" cy="${y + s / 2}" r="${s * 0.12}" fill="${bg}"/>`);
          }
        }
      }
      return out.join("");
    },
  },
  // 4. Suara Mahasiswa: stripes and a megaphone.
  {
    bg: "#d62839",
    fg: "#fdf0d5",
    block: "#141414",
    blockText: "#fdf0d5",
    pattern: () => {
      const out: string[] = [];
      for (let i = -20; i < 30; i++) {
        out.push(`<rect x="${i * 70}" y="-200" width="30" height="1500" fill="#c11d2e" transform="rotate(35 500 500)"/>`);
      }
      // megaphone
      out.push(`<g transform="rotate(-14 420 360)">`);
      out.push(`<path d="M 230 310 L 500 190 L 500 530 L 230 410 Z" fill="#fdf0d5"/>`);
      out.push(`<rect x="170" y="300" width="80" height="120" rx="14" fill="#141414"/>`);
      out.push(`<rect x="480" y="180" width="40" height="360" rx="16" fill="#141414"/>`);
      out.push(`<path d="M 270 420 L 300 520 L 350 520 L 330 430 Z" fill="#141414"/>`);
      for (let i = 0; i < 3; i++) {
        const r = 90 + i * 75;
        out.push(
          `<path d="M ${560 + i * 10} ${360 - r} A ${r} ${r} 0 0 1 ${560 + i * 10} ${360 + r}" fill="none" stroke="#fdf0d5" stroke-width="22" stroke-linecap="round" opacity="${(1 - i * 0.25).toFixed(2)}"/>`,
        );
      }
      out.push(`</g>`);
      return out.join("");
    },
  },
  // 5. Tech Corner: dot grid and circuit traces.
  {
    bg: "#07131c",
    fg: "#8ff5c9",
    block: "#2ee59d",
    blockText: "#07131c",
    pattern: (rand) => {
      const out: string[] = [];
      for (let y = 25; y < 1000; y += 50) {
        for (let x = 25; x < 1000; x += 50) {
          out.push(`<circle cx="${x}" cy="${y}" r="3" fill="#16384a"/>`);
        }
      }
      for (let i = 0; i < 16; i++) {
        let x = 25 + 50 * Math.floor(between(rand, 2, 19));
        let y = 25 + 50 * Math.floor(between(rand, 1, 13));
        let d = `M ${x} ${y}`;
        const steps = 3 + Math.floor(rand() * 4);
        let horizontal = rand() < 0.5;
        for (let s = 0; s < steps; s++) {
          const len = 50 * (1 + Math.floor(rand() * 4)) * (rand() < 0.5 ? -1 : 1);
          if (horizontal) x = Math.min(975, Math.max(75, x + len));
          else y = Math.min(675, Math.max(25, y + len));
          d += ` L ${x} ${y}`;
          horizontal = !horizontal;
        }
        const color = i % 4 === 0 ? "#2ee59d" : i % 4 === 1 ? "#1fa2ff" : "#1c6b5a";
        out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="6" stroke-linejoin="round" stroke-linecap="round"/>`);
        out.push(`<circle cx="${x}" cy="${y}" r="12" fill="#07131c" stroke="${color}" stroke-width="6"/>`);
      }
      // a chip
      out.push(`<rect x="575" y="175" width="250" height="250" rx="24" fill="#0c2230" stroke="#2ee59d" stroke-width="8"/>`);
      for (let i = 0; i < 5; i++) {
        const p = 215 + i * 42;
        out.push(`<rect x="${p}" y="140" width="14" height="35" fill="#2ee59d" transform="translate(${575 - 215 + 20} 0)"/>`);
        out.push(`<rect x="${p}" y="425" width="14" height="35" fill="#2ee59d" transform="translate(${575 - 215 + 20} 0)"/>`);
        out.push(`<rect x="540" y="${p}" width="35" height="14" fill="#2ee59d"/>`);
        out.push(`<rect x="825" y="${p}" width="35" height="14" fill="#2ee59d"/>`);
      }
      out.push(
        `<text x="700" y="322" text-anchor="middle" font-family="'DejaVu Sans Mono', monospace" font-weight="bold" font-size="76" fill="#2ee59d">&lt;/&gt;</text>`,
      );
      return out.join("");
    },
  },
  // 6. Late Night Stories: moon, stars and rooftops.
  {
    bg: "#0b0630",
    fg: "#ffe8a3",
    block: "#ffe8a3",
    blockText: "#0b0630",
    pattern: (rand) => {
      const out: string[] = [];
      out.push(
        `<defs><linearGradient id="night" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0b0630"/><stop offset="1" stop-color="#3a1670"/></linearGradient>` +
          `<mask id="moon"><rect width="1000" height="1000" fill="#fff"/><circle cx="760" cy="220" r="150" fill="#000"/></mask></defs>`,
      );
      out.push(`<rect width="1000" height="1000" fill="url(#night)"/>`);
      for (let i = 0; i < 90; i++) {
        const x = between(rand, 0, 1000);
        const y = between(rand, 0, 650);
        const r = between(rand, 1, 3.6);
        out.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="#ffffff" opacity="${between(rand, 0.3, 1).toFixed(2)}"/>`);
      }
      out.push(`<circle cx="700" cy="280" r="230" fill="#ffe8a3" opacity="0.08"/>`);
      out.push(`<circle cx="700" cy="280" r="170" fill="#ffe8a3" mask="url(#moon)"/>`);
      // rooftops of the boarding houses
      let d = "M 0 1000 L 0 640";
      let x = 0;
      while (x < 1000) {
        const w = between(rand, 90, 170);
        const h = between(rand, 560, 700);
        d += ` L ${n(x)} ${n(h)} L ${n(x + w / 2)} ${n(h - between(rand, 30, 70))} L ${n(x + w)} ${n(h)}`;
        x += w;
      }
      d += " L 1000 1000 Z";
      out.push(`<path d="${d}" fill="#160a3d"/>`);
      for (let i = 0; i < 14; i++) {
        out.push(
          `<rect x="${n(between(rand, 20, 960))}" y="${n(between(rand, 720, 940))}" width="22" height="30" rx="3" fill="#ffcf5c" opacity="${between(rand, 0.5, 0.95).toFixed(2)}"/>`,
        );
      }
      return out.join("");
    },
  },
  // 7. Kuliner Kampus: triangle mosaic and a bowl.
  {
    bg: "#ffb703",
    fg: "#370617",
    block: "#370617",
    blockText: "#ffd166",
    pattern: (rand) => {
      const colors = ["#fb8500", "#ffb703", "#ffb703", "#e85d04", "#ffd166", "#f48c06"];
      const out: string[] = [];
      const s = 125;
      for (let y = 0; y < 1000; y += s) {
        for (let x = 0; x < 1000; x += s) {
          const a = pick(rand, colors);
          const b = pick(rand, colors);
          if (rand() < 0.5) {
            out.push(`<path d="M ${x} ${y} L ${x + s} ${y} L ${x} ${y + s} Z" fill="${a}"/>`);
            out.push(`<path d="M ${x + s} ${y} L ${x + s} ${y + s} L ${x} ${y + s} Z" fill="${b}"/>`);
          } else {
            out.push(`<path d="M ${x} ${y} L ${x + s} ${y + s} L ${x} ${y + s} Z" fill="${a}"/>`);
            out.push(`<path d="M ${x} ${y} L ${x + s} ${y} L ${x + s} ${y + s} Z" fill="${b}"/>`);
          }
        }
      }
      // A steaming bowl of noodles.
      out.push(`<circle cx="640" cy="360" r="260" fill="#370617" opacity="0.12"/>`);
      out.push(`<path d="M 430 340 L 850 340 C 850 460 760 540 640 540 C 520 540 430 460 430 340 Z" fill="#d00000"/>`);
      out.push(`<rect x="420" y="325" width="440" height="30" rx="15" fill="#9d0208"/>`);
      out.push(`<path d="M 470 380 L 810 380" stroke="#ffd166" stroke-width="10" stroke-dasharray="24 16"/>`);
      out.push(`<rect x="580" y="540" width="120" height="26" rx="8" fill="#9d0208"/>`);
      out.push(`<path d="M 700 320 L 880 120 M 730 322 L 900 140" stroke="#370617" stroke-width="12" stroke-linecap="round"/>`);
      for (let i = 0; i < 3; i++) {
        const x = 540 + i * 60;
        out.push(
          `<path d="M ${x} 300 C ${x - 20} 270 ${x + 20} 250 ${x} 220 C ${x - 20} 190 ${x + 20} 170 ${x} 140" fill="none" stroke="#fff1d6" stroke-width="10" stroke-linecap="round" opacity="0.85"/>`,
        );
      }
      return out.join("");
    },
  },
  // 8. Green Campus: scattered leaves.
  {
    bg: "#1b4332",
    fg: "#d8f3dc",
    block: "#d8f3dc",
    blockText: "#1b4332",
    pattern: (rand) => {
      const colors = ["#2d6a4f", "#40916c", "#52b788", "#74c69d", "#95d5b2"];
      const out: string[] = [];
      for (let i = 0; i < 46; i++) {
        const x = between(rand, -40, 1040);
        const y = between(rand, -40, 1040);
        const s = between(rand, 0.6, 1.7);
        const rot = between(rand, 0, 360);
        const c = pick(rand, colors);
        out.push(
          `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(rot)}) scale(${s.toFixed(2)})">` +
            `<path d="M 0 -80 C 45 -45 45 45 0 80 C -45 45 -45 -45 0 -80 Z" fill="${c}"/>` +
            `<path d="M 0 -70 L 0 95" stroke="#1b4332" stroke-width="4" stroke-linecap="round" opacity="0.5"/></g>`,
        );
      }
      out.push(`<circle cx="660" cy="360" r="230" fill="#1b4332" opacity="0.85"/>`);
      out.push(`<circle cx="660" cy="360" r="230" fill="none" stroke="#d8f3dc" stroke-width="6"/>`);
      // a sprout
      out.push(`<path d="M 660 520 L 660 330" stroke="#d8f3dc" stroke-width="14" stroke-linecap="round"/>`);
      out.push(`<path d="M 660 380 C 600 380 550 340 545 270 C 610 270 660 310 660 380 Z" fill="#95d5b2"/>`);
      out.push(`<path d="M 660 340 C 720 340 780 290 785 210 C 710 210 660 260 660 340 Z" fill="#52b788"/>`);
      out.push(`<path d="M 560 520 L 760 520" stroke="#d8f3dc" stroke-width="14" stroke-linecap="round"/>`);
      return out.join("");
    },
  },
  // 9. Sports Weekly: speed bands and a ball.
  {
    bg: "#0a2463",
    fg: "#e8f1ff",
    block: "#fffaff",
    blockText: "#0a2463",
    pattern: () => {
      const out: string[] = [];
      out.push(`<g transform="rotate(-20 500 500)">`);
      const bands: Array<[number, number, string]> = [
        [80, 60, "#1e3f8a"],
        [170, 24, "#3e92cc"],
        [230, 110, "#1e3f8a"],
        [380, 16, "#fffaff"],
        [420, 40, "#3e92cc"],
        [500, 90, "#1e3f8a"],
      ];
      for (const [y, h, c] of bands) out.push(`<rect x="-400" y="${y}" width="1800" height="${h}" fill="${c}"/>`);
      out.push(`</g>`);
      for (let i = 0; i < 4; i++) {
        const x = 80 + i * 70;
        out.push(
          `<path d="M ${x} 140 L ${x + 50} 200 L ${x} 260" fill="none" stroke="#3e92cc" stroke-width="18" stroke-linecap="round" stroke-linejoin="round" opacity="${(0.4 + i * 0.2).toFixed(1)}"/>`,
        );
      }
      // ball
      const cx = 680;
      const cy = 380;
      out.push(`<circle cx="${cx}" cy="${cy + 12}" r="215" fill="#000" opacity="0.25"/>`);
      out.push(`<circle cx="${cx}" cy="${cy}" r="210" fill="#fffaff"/>`);
      const pent = (px: number, py: number, r: number, rot: number): string => {
        const pts: string[] = [];
        for (let k = 0; k < 5; k++) {
          const a = rot + (k * Math.PI * 2) / 5 - Math.PI / 2;
          pts.push(`${n(px + r * Math.cos(a))},${n(py + r * Math.sin(a))}`);
        }
        return `<polygon points="${pts.join(" ")}" fill="#0a2463"/>`;
      };
      out.push(`<clipPath id="ball"><circle cx="${cx}" cy="${cy}" r="210"/></clipPath><g clip-path="url(#ball)">`);
      out.push(pent(cx, cy, 62, 0));
      for (let k = 0; k < 5; k++) {
        const a = (k * Math.PI * 2) / 5 - Math.PI / 2 + Math.PI / 5;
        out.push(pent(cx + 175 * Math.cos(a), cy + 175 * Math.sin(a), 58, Math.PI / 5 + a));
        const a2 = (k * Math.PI * 2) / 5 - Math.PI / 2;
        out.push(
          `<line x1="${n(cx + 60 * Math.cos(a2))}" y1="${n(cy + 60 * Math.sin(a2))}" x2="${n(cx + 150 * Math.cos(a2))}" y2="${n(cy + 150 * Math.sin(a2))}" stroke="#0a2463" stroke-width="8"/>`,
        );
      }
      out.push(`</g>`);
      out.push(`<circle cx="${cx}" cy="${cy}" r="210" fill="none" stroke="#0a2463" stroke-width="8"/>`);
      return out.join("");
    },
  },
  // 10. Behind the Mic: station colours, equaliser and a microphone.
  {
    bg: "#14101f",
    fg: "#ffd3de",
    block: PINK,
    blockText: "#ffffff",
    pattern: (rand) => {
      const out: string[] = [];
      out.push(
        `<defs><radialGradient id="g10" cx="0.65" cy="0.35" r="0.7"><stop offset="0" stop-color="${PINK}" stop-opacity="0.45"/><stop offset="1" stop-color="${VIOLET}" stop-opacity="0"/></radialGradient>` +
          `<linearGradient id="eq10" x1="0" y1="1" x2="0" y2="0"><stop offset="0" stop-color="${VIOLET}"/><stop offset="1" stop-color="${PINK}"/></linearGradient></defs>`,
      );
      out.push(`<rect width="1000" height="1000" fill="url(#g10)"/>`);
      for (let i = 0; i < 25; i++) {
        const x = 10 + i * 40;
        const h = between(rand, 60, 330) * (0.6 + 0.4 * Math.sin(i * 0.5));
        out.push(`<rect x="${x}" y="${n(640 - h)}" width="26" height="${n(h)}" rx="6" fill="url(#eq10)" opacity="0.55"/>`);
      }
      // microphone
      out.push(`<rect x="580" y="90" width="200" height="330" rx="100" fill="#2a2238" stroke="#ffd3de" stroke-width="10"/>`);
      for (let y = 140; y <= 300; y += 32) out.push(`<line x1="600" y1="${y}" x2="760" y2="${y}" stroke="#ffd3de" stroke-width="6" opacity="0.55"/>`);
      out.push(
        `<path d="M 540 300 C 540 440 600 490 680 490 C 760 490 820 440 820 300" fill="none" stroke="#ffd3de" stroke-width="14" stroke-linecap="round"/>`,
      );
      out.push(`<rect x="672" y="490" width="16" height="110" fill="#ffd3de"/>`);
      out.push(`<rect x="600" y="596" width="160" height="18" rx="9" fill="#ffd3de"/>`);
      return out.join("");
    },
  },
];

/** One line if it fits, else the most balanced two-line split, else greedy lines. */
function splitLines(text: string, size: number, maxWidth: number): string[] {
  const words = text.toUpperCase().split(/\s+/);
  const width = (line: string): number => textWidth(line, size, -2);
  const whole = words.join(" ");
  if (width(whole) <= maxWidth || words.length === 1) return [whole];
  let best: string[] | null = null;
  let bestWidth = Infinity;
  for (let i = 1; i < words.length; i++) {
    const pair = [words.slice(0, i).join(" "), words.slice(i).join(" ")];
    const w = Math.max(...pair.map(width));
    if (w < bestWidth) {
      best = pair;
      bestWidth = w;
    }
  }
  if (best && bestWidth <= maxWidth) return best;
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (line !== "" && width(candidate) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/**
 * Covers are drawn on a 1000-unit square and rendered at 1400 px, the smallest artwork podcast
 * directories accept (ARTWORK_MIN in app/services/images.server.ts), so the admin sees no upscaling note.
 */
const COVER_PX = 1400;

function coverSvg(index: number): string {
  const episode = EPISODES[index];
  const style = COVER_STYLES[index];
  if (!episode || !style) throw new Error(`no cover style for ${index}`);
  const rand = prng(1000 + index * 7919);
  const S = 1000;
  const parts: string[] = [];
  parts.push(`<rect width="${S}" height="${S}" fill="${style.bg}"/>`);
  parts.push(style.pattern(rand));

  // Show name on solid bands, bottom left, as large as fits.
  const maxWidth = 800;
  let size = 132;
  let lines = splitLines(episode.show, size, maxWidth);
  while (size > 60 && lines.some((l) => textWidth(l, size, -2) > maxWidth)) {
    size -= 4;
    lines = splitLines(episode.show, size, maxWidth);
  }
  const lineH = Math.round(size * 1.08);
  const padX = Math.round(size * 0.22);
  const left = 56;
  let y = S - 70 - lines.length * lineH;
  for (const line of lines) {
    const w = textWidth(line, size, -2);
    parts.push(`<rect x="${left}" y="${y}" width="${n(w + padX * 2)}" height="${lineH}" fill="${style.block}"/>`);
    parts.push(
      `<text x="${left + padX}" y="${n(y + lineH * 0.5 + size * 0.36)}" font-family="${SANS}" font-weight="bold" font-size="${size}" letter-spacing="-2" fill="${style.blockText}">${esc(line)}</text>`,
    );
    y += lineH;
  }

  // Small labels on a band so they stay legible over any pattern.
  const label = "SPIN RADIO PODCAST";
  const labelW = textWidth(label, 24, 5);
  parts.push(`<rect x="${left}" y="52" width="${n(labelW + 68)}" height="50" rx="25" fill="${style.block}"/>`);
  parts.push(`<circle cx="${left + 26}" cy="77" r="8" fill="${style.blockText}"/>`);
  parts.push(
    `<text x="${left + 44}" y="86" font-family="${SANS}" font-weight="bold" font-size="24" letter-spacing="5" fill="${style.blockText}">${label}</text>`,
  );
  const ep = `EP ${pad2(index + 1)}`;
  const epW = textWidth(ep, 26, 3);
  parts.push(`<rect x="${n(S - 56 - epW - 44)}" y="52" width="${n(epW + 44)}" height="50" rx="25" fill="none" stroke="${style.block}" stroke-width="4"/>`);
  parts.push(`<rect x="${n(S - 56 - epW - 44)}" y="52" width="${n(epW + 44)}" height="50" rx="25" fill="${style.bg}" fill-opacity="0.6"/>`);
  parts.push(
    `<text x="${n(S - 56 - 22)}" y="87" text-anchor="end" font-family="${SANS}" font-weight="bold" font-size="26" letter-spacing="3" fill="${style.fg}">${ep}</text>`,
  );
  return svgDoc(COVER_PX, COVER_PX, parts.join("\n"), `0 0 ${S} ${S}`);
}

// ---------------------------------------------------------------------------
// 3 & 4. Crew portraits

type Gender = "f" | "m";

const CREW: ReadonlyArray<readonly [string, Gender, string]> = [
  ["Dimas", "m", "Station Manager"],
  ["Ayu", "f", "Program Director"],
  ["Raka", "m", "Music Director"],
  ["Salsa", "f", "Podcast Producer"],
  ["Bima", "m", "Sound Engineer"],
  ["Nadia", "f", "Morning Host"],
  ["Fajar", "m", "Night Host"],
  ["Putri", "f", "News Anchor"],
  ["Galih", "m", "DJ"],
  ["Intan", "f", "Social Media"],
  ["Rizky", "m", "Reporter"],
  ["Citra", "f", "Graphic Designer"],
  ["Arya", "m", "Technical Crew"],
  ["Maya", "f", "Copywriter"],
  ["Yoga", "m", "Video Editor"],
  ["Dewi", "f", "Event Coordinator"],
  ["Bayu", "m", "Announcer"],
  ["Laras", "f", "Podcast Host"],
  ["Hendra", "m", "Photographer"],
  ["Tiara", "f", "Marketing"],
  ["Adit", "m", "DJ"],
  ["Kirana", "f", "Reporter"],
  ["Reza", "m", "Producer"],
  ["Anisa", "f", "Announcer"],
  ["Wahyu", "m", "Sound Engineer"],
  ["Sekar", "f", "Music Curator"],
  ["Ilham", "m", "Sports Reporter"],
  ["Rani", "f", "Afternoon Host"],
  ["Fikri", "m", "Web Developer"],
  ["Nabila", "f", "Content Writer"],
  ["Kevin", "m", "Technical Crew"],
  ["Melati", "f", "Community Lead"],
  ["Jonathan", "m", "Podcast Editor"],
  ["Sinta", "f", "Social Media"],
  ["Gilang", "m", "Camera Operator"],
  ["Zahra", "f", "News Editor"],
  ["Teguh", "m", "Archivist"],
  ["Olivia", "f", "Weekend Host"],
];

const SKIN = ["#f3d2b3", "#e8b890", "#d9a077", "#c68642", "#a86b43", "#8d5524", "#6b4226", "#f0c8a0"];
const HAIR = ["#15121a", "#241a14", "#3b271b", "#4e3322", "#1d1b22", "#6d4428"];
const DYED = [PINK, "#8f6bff", "#2ec4b6", "#ff9f1c"];
const SHIRTS = [
  "#1f2a44",
  "#2b2d42",
  "#f4f1ea",
  "#e9c46a",
  "#2a9d8f",
  "#e76f51",
  "#3a86ff",
  "#8d99ae",
  "#6a4c93",
  "#1b4332",
  "#9d0208",
  "#ffafcc",
  "#264653",
  "#fb8500",
  "#15121a",
  "#457b9d",
];
const PORTRAIT_HUES = [348, 12, 32, 46, 160, 178, 196, 214, 234, 256, 278, 300, 322, 140];
const HIJABS = ["#f4e1d2", "#d8e2dc", "#ffcad4", "#cdb4db", "#a2d2ff", "#2b2d42", "#e9c46a", "#9a8c98", "#b5838d", "#84a59d"];

interface Character {
  hue: number;
  skin: string;
  hair: string;
  hairStyle: string;
  shirt: string;
  shirtStyle: string;
  hijab: string;
  headphones: boolean;
  headphoneColor: string;
  glasses: boolean;
  smile: number;
  decor: number;
  bgAngle: number;
}

function character(index: number): Character {
  const entry = CREW[index];
  if (!entry) throw new Error(`no crew entry ${index}`);
  const gender = entry[1];
  const rand = prng(4242 + index * 2654435761);
  // Hues that make rich gradients (no acid limes); stepped so neighbours differ.
  const hue = (PORTRAIT_HUES[(index * 5) % PORTRAIT_HUES.length] ?? 0) + between(rand, -8, 8);
  const hairStyle =
    gender === "f"
      ? pick(rand, ["long", "bob", "bun", "hijab", "ponytail", "curly", "hijab", "long"])
      : pick(rand, ["short", "buzz", "curly", "cap", "beanie", "sidepart", "short"]);
  const dyed = rand() < 0.18 && hairStyle !== "hijab";
  return {
    hue,
    skin: pick(rand, SKIN),
    hair: dyed ? pick(rand, DYED) : pick(rand, HAIR),
    hairStyle,
    shirt: pick(rand, SHIRTS),
    shirtStyle: pick(rand, ["crew", "vneck", "hoodie", "collar", "jacket", "stripes"]),
    hijab: pick(rand, HIJABS),
    headphones: rand() < 0.4 && hairStyle !== "cap",
    headphoneColor: pick(rand, ["#15121a", "#f4f1ea", PINK, "#2b2b33"]),
    glasses: rand() < 0.18,
    smile: between(rand, 8, 20),
    decor: Math.floor(rand() * 4),
    bgAngle: between(rand, 0, 1),
  };
}

function shade(hex: string, amount: number): string {
  const v = parseInt(hex.slice(1), 16);
  const ch = (shift: number): number => {
    const c = (v >> shift) & 255;
    return Math.max(0, Math.min(255, Math.round(amount < 0 ? c * (1 + amount) : c + (255 - c) * amount)));
  };
  return `#${[ch(16), ch(8), ch(0)].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

function luminance(hex: string): number {
  const v = parseInt(hex.slice(1), 16);
  return (0.2126 * ((v >> 16) & 255) + 0.7152 * ((v >> 8) & 255) + 0.0722 * (v & 255)) / 255;
}

const SHOULDERS = "M 50 830 C 50 655 150 560 300 560 C 450 560 550 655 550 830 Z";

/**
 * Head-and-shoulders illustration in a 600x800 coordinate space. The head
 * layer is drawn with its own offset so the proportions stay easy to tune.
 */
function portraitBody(index: number, idPrefix: string, withLabel: boolean): string {
  const c = character(index);
  const entry = CREW[index];
  if (!entry) throw new Error(`no crew entry ${index}`);
  const [name, , role] = entry;
  const rand = prng(99 + index * 31337);
  const id = (s: string): string => `${idPrefix}${s}`;
  const top = hsl(c.hue, 78, 66);
  const bottom = hsl(c.hue + 38, 70, 44);
  const light = hsl(c.hue + 10, 90, 85);
  const deep = hsl(c.hue + 40, 70, 30);
  const skinShade = shade(c.skin, -0.16);
  const hairShade = shade(c.hair, luminance(c.hair) < 0.12 ? 0.14 : -0.2);
  const ink = shade(c.skin, -0.72);

  const bg: string[] = [];
  const back: string[] = [];
  const body: string[] = [];
  const head: string[] = [];
  const label: string[] = [];

  bg.push(`<defs>
    <linearGradient id="${id("bg")}" x1="${c.bgAngle.toFixed(2)}" y1="0" x2="${(1 - c.bgAngle).toFixed(2)}" y2="1">
      <stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/>
    </linearGradient>
    <linearGradient id="${id("fade")}" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0b0a12" stop-opacity="0"/><stop offset="1" stop-color="#0b0a12" stop-opacity="0.8"/>
    </linearGradient>
    <clipPath id="${id("body")}"><path d="${SHOULDERS}"/></clipPath>
  </defs>`);
  bg.push(`<rect x="-100" y="-100" width="800" height="1000" fill="url(#${id("bg")})"/>`);

  // Background decoration.
  if (c.decor === 0) {
    bg.push(`<circle cx="300" cy="370" r="240" fill="${light}" opacity="0.35"/>`);
    bg.push(`<circle cx="300" cy="370" r="295" fill="none" stroke="${light}" stroke-width="3" opacity="0.45"/>`);
  } else if (c.decor === 1) {
    for (let i = 0; i < 6; i++) {
      bg.push(
        `<circle cx="300" cy="360" r="${190 + i * 48}" fill="none" stroke="${light}" stroke-width="${i % 2 === 0 ? 8 : 3}" opacity="${(0.4 - i * 0.05).toFixed(2)}"/>`,
      );
    }
  } else if (c.decor === 2) {
    for (let y = 30; y < 800; y += 36) {
      for (let x = 30; x < 600; x += 36) bg.push(`<circle cx="${x}" cy="${y}" r="3.2" fill="${light}" opacity="0.35"/>`);
    }
    bg.push(`<circle cx="${n(between(rand, 440, 520))}" cy="${n(between(rand, 130, 210))}" r="84" fill="${deep}" opacity="0.3"/>`);
  } else {
    bg.push(`<g transform="rotate(-30 300 400)" opacity="0.22">`);
    for (let i = -10; i < 14; i++) bg.push(`<rect x="${i * 60}" y="-300" width="26" height="1400" fill="${light}"/>`);
    bg.push(`</g>`);
    bg.push(`<circle cx="300" cy="370" r="220" fill="${deep}" opacity="0.28"/>`);
  }

  // --- Hair behind the head (shares the head's offset).
  if (c.hairStyle === "long") {
    back.push(
      `<path d="M 190 350 C 175 220 245 200 300 200 C 360 200 430 225 412 350 C 418 450 440 560 430 640 C 360 665 240 665 170 640 C 162 560 182 450 190 350 Z" fill="${hairShade}"/>`,
    );
  } else if (c.hairStyle === "bob") {
    back.push(
      `<path d="M 190 350 C 180 225 245 205 300 205 C 360 205 425 225 410 350 C 418 410 425 460 418 495 C 360 510 240 510 182 495 C 175 460 182 410 190 350 Z" fill="${hairShade}"/>`,
    );
  } else if (c.hairStyle === "bun") {
    back.push(`<circle cx="300" cy="212" r="54" fill="${c.hair}"/>`);
    back.push(`<path d="M 262 240 C 280 252 320 252 338 240" fill="none" stroke="${hairShade}" stroke-width="8" stroke-linecap="round"/>`);
  } else if (c.hairStyle === "ponytail") {
    back.push(`<path d="M 372 250 C 470 250 488 400 446 540 C 430 480 418 400 380 330 Z" fill="${hairShade}"/>`);
  } else if (c.hairStyle === "curly") {
    for (let i = 0; i < 15; i++) {
      const a = Math.PI * 0.92 + (i / 14) * Math.PI * 1.16;
      back.push(
        `<circle cx="${n(300 + 128 * Math.cos(a))}" cy="${n(345 + 134 * Math.sin(a))}" r="${n(between(rand, 40, 52))}" fill="${i % 2 === 0 ? c.hair : hairShade}"/>`,
      );
    }
  }

  // --- Shoulders and clothes.
  body.push(`<path d="${SHOULDERS}" fill="${c.shirt}"/>`);
  const seam = shade(c.shirt, luminance(c.shirt) > 0.6 ? -0.25 : -0.35);
  if (c.hairStyle === "hijab") {
    body.push(`<path d="M 300 560 L 300 830" stroke="${seam}" stroke-width="3" opacity="0.5"/>`);
  } else {
    if (c.shirtStyle === "stripes") {
      const stripe = luminance(c.shirt) > 0.6 ? "#2b2d42" : shade(c.shirt, 0.55);
      body.push(`<g clip-path="url(#${id("body")})">`);
      for (let y = 600; y < 830; y += 44) body.push(`<rect x="0" y="${y}" width="600" height="16" fill="${stripe}"/>`);
      body.push(`</g>`);
    }
    if (c.shirtStyle === "hoodie") {
      body.push(`<path d="M 170 606 C 200 534 400 534 430 606 C 390 648 210 648 170 606 Z" fill="${shade(c.shirt, -0.25)}"/>`);
    }
    body.push(`<path d="M 252 450 L 252 560 C 272 598 328 598 348 560 L 348 450 Z" fill="${skinShade}"/>`);
    if (c.shirtStyle === "vneck") {
      body.push(`<path d="M 242 568 L 300 650 L 358 568 Z" fill="${skinShade}"/>`);
      body.push(`<path d="M 242 568 L 300 650 L 358 568" fill="none" stroke="${seam}" stroke-width="10" stroke-linejoin="round"/>`);
    } else if (c.shirtStyle === "crew" || c.shirtStyle === "stripes") {
      body.push(`<path d="M 240 570 C 262 606 338 606 360 570" fill="none" stroke="${seam}" stroke-width="12" stroke-linecap="round"/>`);
    } else if (c.shirtStyle === "hoodie") {
      body.push(`<path d="M 270 600 L 262 700 M 330 600 L 338 700" stroke="#f4f1ea" stroke-width="7" stroke-linecap="round"/>`);
      body.push(`<circle cx="262" cy="704" r="7" fill="#f4f1ea"/><circle cx="338" cy="704" r="7" fill="#f4f1ea"/>`);
    } else if (c.shirtStyle === "collar") {
      const collar = luminance(c.shirt) > 0.75 ? "#8d99ae" : "#f4f1ea";
      body.push(`<path d="M 238 562 L 300 612 L 272 656 L 222 592 Z" fill="${collar}"/>`);
      body.push(`<path d="M 362 562 L 300 612 L 328 656 L 378 592 Z" fill="${collar}"/>`);
      body.push(`<path d="M 300 612 L 300 830" stroke="${seam}" stroke-width="4"/>`);
      body.push(`<circle cx="300" cy="690" r="5" fill="${seam}"/><circle cx="300" cy="750" r="5" fill="${seam}"/>`);
    } else if (c.shirtStyle === "jacket") {
      const tee = luminance(c.shirt) > 0.5 ? "#15121a" : pick(rand, ["#f4f1ea", PINK, "#e9c46a"]);
      body.push(`<path d="M 242 572 C 264 606 336 606 358 572 L 378 830 L 222 830 Z" fill="${tee}"/>`);
      body.push(`<path d="M 242 572 L 222 830 M 358 572 L 378 830" stroke="${seam}" stroke-width="8"/>`);
      body.push(`<path d="M 238 576 L 264 700 L 226 690 Z M 362 576 L 336 700 L 374 690 Z" fill="${shade(c.shirt, 0.14)}"/>`);
    }
  }

  // --- Head.
  if (c.hairStyle === "hijab") {
    const h = c.hijab;
    const fold = shade(h, -0.14);
    head.push(
      `<path d="M 300 196 C 380 196 432 250 430 350 C 428 440 446 520 500 600 C 540 660 540 700 520 720 C 420 760 180 760 80 720 C 60 700 60 660 100 600 C 154 520 172 440 170 350 C 168 250 220 196 300 196 Z" fill="${h}"/>`,
    );
    head.push(
      `<path d="M 170 420 C 180 540 230 600 300 610 C 370 600 420 540 430 420 C 440 560 470 640 500 680 C 400 720 200 720 100 680 C 130 640 160 560 170 420 Z" fill="${fold}" opacity="0.55"/>`,
    );
    head.push(`<ellipse cx="300" cy="382" rx="100" ry="120" fill="${shade(h, -0.08)}"/>`);
    head.push(`<ellipse cx="300" cy="386" rx="90" ry="112" fill="${c.skin}"/>`);
    head.push(`<path d="M 212 360 C 212 290 250 262 300 262 C 350 262 388 290 388 360 C 372 312 340 292 300 292 C 260 292 228 312 212 360 Z" fill="${h}"/>`);
  } else {
    head.push(`<ellipse cx="198" cy="380" rx="18" ry="30" fill="${skinShade}"/>`);
    head.push(`<ellipse cx="402" cy="380" rx="18" ry="30" fill="${skinShade}"/>`);
    head.push(`<ellipse cx="300" cy="360" rx="102" ry="124" fill="${c.skin}"/>`);
    head.push(
      `<path d="M 206 410 C 220 480 260 484 300 484 C 340 484 380 480 394 410 C 386 470 350 500 300 500 C 250 500 214 470 206 410 Z" fill="${skinShade}" opacity="0.45"/>`,
    );
  }

  // Face: a calm, friendly minimum.
  const fy = c.hairStyle === "hijab" ? 392 : 372;
  const browColor = c.hairStyle === "hijab" || luminance(c.hair) > 0.35 ? ink : c.hair;
  head.push(`<ellipse cx="252" cy="${fy + 38}" rx="20" ry="11" fill="#ff6f91" opacity="0.18"/>`);
  head.push(`<ellipse cx="348" cy="${fy + 38}" rx="20" ry="11" fill="#ff6f91" opacity="0.18"/>`);
  head.push(`<ellipse cx="264" cy="${fy}" rx="7" ry="9" fill="${ink}"/>`);
  head.push(`<ellipse cx="336" cy="${fy}" rx="7" ry="9" fill="${ink}"/>`);
  head.push(
    `<path d="M 246 ${fy - 26} Q 264 ${fy - 36} 282 ${fy - 26} M 318 ${fy - 26} Q 336 ${fy - 36} 354 ${fy - 26}" fill="none" stroke="${browColor}" stroke-width="6" stroke-linecap="round"/>`,
  );
  head.push(`<path d="M 302 ${fy + 14} Q 292 ${fy + 34} 304 ${fy + 38}" fill="none" stroke="${shade(c.skin, -0.3)}" stroke-width="4" stroke-linecap="round"/>`);
  head.push(
    `<path d="M 276 ${fy + 62} Q 300 ${n(fy + 62 + c.smile)} 324 ${fy + 62}" fill="none" stroke="${shade(c.skin, -0.55)}" stroke-width="5" stroke-linecap="round"/>`,
  );
  if (c.glasses) {
    const frame = pick(rand, ["#15121a", "#15121a", "#7a4b2a", PINK]);
    head.push(
      `<rect x="230" y="${fy - 22}" width="64" height="48" rx="18" fill="#ffffff" fill-opacity="0.12" stroke="${frame}" stroke-width="6"/>` +
        `<rect x="306" y="${fy - 22}" width="64" height="48" rx="18" fill="#ffffff" fill-opacity="0.12" stroke="${frame}" stroke-width="6"/>` +
        `<path d="M 294 ${fy - 4} Q 300 ${fy - 10} 306 ${fy - 4}" fill="none" stroke="${frame}" stroke-width="5"/>`,
    );
  }

  // Front hair and headwear.
  const front: Record<string, string> = {
    short: "M 196 360 C 186 245 240 212 302 212 C 372 212 418 250 406 360 C 398 318 382 290 350 282 C 300 300 250 296 222 286 C 206 306 200 330 196 360 Z",
    buzz: "M 199 342 C 196 262 242 228 300 228 C 360 228 406 262 401 342 C 392 302 362 286 300 284 C 240 286 210 300 199 342 Z",
    sidepart: "M 196 362 C 182 240 244 206 310 210 C 380 214 420 262 404 362 C 398 320 386 296 360 284 C 300 290 230 276 210 300 C 202 318 198 340 196 362 Z",
    long: "M 192 380 C 180 240 240 208 300 208 C 362 208 422 240 408 380 C 396 320 372 280 330 262 C 300 300 240 310 204 320 C 198 340 194 360 192 380 Z",
    bob: "M 192 400 C 180 240 240 210 300 210 C 362 210 422 240 408 400 C 400 330 380 290 330 274 L 200 300 C 196 330 194 360 192 400 Z",
    bun: "M 199 350 C 196 262 242 232 300 232 C 360 232 406 262 401 350 C 392 302 362 280 300 278 C 240 280 210 302 199 350 Z",
    ponytail: "M 198 350 C 194 258 242 226 300 226 C 362 226 408 258 402 350 C 388 300 350 276 290 280 C 250 284 214 306 198 350 Z",
    cap: "M 196 350 C 186 250 240 215 302 215 C 372 215 418 250 406 350 C 398 318 382 300 350 292 C 300 300 250 300 222 292 C 206 310 200 330 196 350 Z",
  };
  const f = front[c.hairStyle];
  if (f) head.push(`<path d="${f}" fill="${c.hair}"/>`);
  if (c.hairStyle === "curly") {
    for (let i = 0; i < 8; i++) {
      const x = 215 + i * 24;
      head.push(
        `<circle cx="${x}" cy="${n(258 + Math.abs(i - 3.5) * 6 + between(rand, -4, 4))}" r="${n(between(rand, 26, 34))}" fill="${i % 2 === 0 ? c.hair : hairShade}"/>`,
      );
    }
  }
  if (c.hairStyle === "cap") {
    const capColor = pick(rand, [PINK, "#15121a", "#f4f1ea", VIOLET, "#ff9f1c"]);
    head.push(`<path d="M 192 320 C 186 220 240 196 302 196 C 368 196 418 222 410 320 C 340 300 262 300 192 320 Z" fill="${capColor}"/>`);
    head.push(`<path d="M 300 200 L 300 306" stroke="${shade(capColor, -0.25)}" stroke-width="4"/>`);
    head.push(
      `<path d="M 192 320 C 250 300 330 300 410 320 C 460 330 500 340 510 352 C 450 348 400 340 300 336 C 250 336 215 338 192 340 Z" fill="${shade(capColor, -0.2)}"/>`,
    );
    head.push(`<circle cx="300" cy="198" r="9" fill="${shade(capColor, -0.25)}"/>`);
  }
  if (c.hairStyle === "beanie") {
    const beanie = pick(rand, [PINK, "#ffd166", "#2ec4b6", "#f4f1ea", VIOLET]);
    head.push(`<path d="M 194 330 C 186 215 244 180 302 180 C 362 180 418 215 406 330 Z" fill="${beanie}"/>`);
    for (let x = 215; x < 400; x += 22) {
      head.push(`<path d="M ${x} 215 L ${x} 320" stroke="${shade(beanie, -0.12)}" stroke-width="6" opacity="0.7"/>`);
    }
    head.push(`<rect x="186" y="300" width="228" height="50" rx="22" fill="${shade(beanie, -0.15)}"/>`);
  }
  if (c.headphones) {
    const hc = c.headphoneColor;
    const ring = shade(hc, luminance(hc) > 0.6 ? -0.25 : 0.25);
    const wide = c.hairStyle === "hijab" || c.hairStyle === "curly" ? 14 : 0;
    head.push(
      `<path d="M ${178 - wide} 372 C ${170 - wide} ${180 - wide} ${430 + wide} ${180 - wide} ${422 + wide} 372" fill="none" stroke="${hc}" stroke-width="20" stroke-linecap="round"/>`,
    );
    head.push(`<rect x="${158 - wide}" y="318" width="52" height="112" rx="24" fill="${hc}"/>`);
    head.push(`<rect x="${390 + wide}" y="318" width="52" height="112" rx="24" fill="${hc}"/>`);
    head.push(`<rect x="${168 - wide}" y="334" width="16" height="80" rx="8" fill="${ring}" opacity="0.6"/>`);
    head.push(`<rect x="${416 + wide}" y="334" width="16" height="80" rx="8" fill="${ring}" opacity="0.6"/>`);
  }

  if (withLabel) {
    label.push(`<rect x="0" y="540" width="600" height="260" fill="url(#${id("fade")})"/>`);
    label.push(`<rect x="40" y="682" width="44" height="6" rx="3" fill="${light}"/>`);
    label.push(`<text x="40" y="740" font-family="${SANS}" font-weight="bold" font-size="50" letter-spacing="-1" fill="#ffffff">${esc(name)}</text>`);
    label.push(
      `<text x="42" y="774" font-family="${SANS}" font-weight="bold" font-size="19" letter-spacing="4" fill="#ffffff" fill-opacity="0.85">${esc(role.toUpperCase())}</text>`,
    );
    label.push(
      `<text x="560" y="60" text-anchor="end" font-family="${SANS}" font-weight="bold" font-size="18" letter-spacing="4" fill="#ffffff" fill-opacity="0.9">SPIN RADIO</text>`,
    );
    label.push(`<circle cx="${n(560 - textWidth("SPIN RADIO", 18, 4) - 16)}" cy="54" r="6" fill="#ffffff" fill-opacity="0.9"/>`);
  }

  // The figure is drawn a little larger than its sketch coordinates, and the
  // head sits a touch lower so the neck reads naturally.
  return [
    ...bg,
    `<g transform="translate(300 820) scale(1.08) translate(-300 -820)">`,
    `<g transform="translate(0 22)">`,
    ...back,
    `</g>`,
    ...body,
    `<g transform="translate(0 22)">`,
    ...head,
    `</g>`,
    `</g>`,
    ...label,
  ].join("\n");
}

// ---------------------------------------------------------------------------
// 5. Audio

interface AudioSpec {
  file: string;
  voice: string;
  text: string;
  title: string;
  minSeconds: number;
  maxSeconds: number;
  format: "mp3" | "wav";
  chord: readonly number[];
}

const AUDIO: readonly AudioSpec[] = [
  {
    file: "audio/episode-1.mp3",
    voice: "id",
    title: "SPIN RADIO Podcast - Episode 1",
    text:
      "Selamat datang di podcast SPIN RADIO, episode satu: Ngopi Pagi. " +
      "Kali ini kami membahas tips bertahan di minggu ujian tengah semester, " +
      "mulai dari mengatur waktu belajar, tidur yang cukup, sampai mencari kopi terbaik di sekitar kampus. " +
      "Ambil kopimu, duduk yang nyaman, dan dengarkan sampai habis. " +
      "SPIN RADIO. Siaran langsung dari kampus, sepanjang hari.",
    minSeconds: 24,
    maxSeconds: 40,
    format: "mp3",
    chord: [220, 261.63, 329.63, 392],
  },
  {
    file: "audio/episode-2.mp3",
    voice: "id",
    title: "SPIN RADIO Podcast - Episode 2",
    text:
      "Selamat datang di podcast SPIN RADIO, episode dua: Indie Hour. " +
      "Malam ini kami ngobrol dengan tiga band kampus tentang rekaman pertama mereka, " +
      "manggung di acara fakultas, dan mimpi tampil di festival musik besar. " +
      "Jangan lupa kirim lagu favoritmu lewat media sosial kami. " +
      "SPIN RADIO. Siaran langsung dari kampus, sepanjang hari.",
    minSeconds: 24,
    maxSeconds: 40,
    format: "mp3",
    chord: [196, 246.94, 293.66, 369.99],
  },
  {
    file: "audio/episode-3.wav",
    voice: "en-us",
    title: "SPIN RADIO Podcast - Episode 3",
    text: "Welcome to the SPIN RADIO podcast, episode three: Campus Talk. " + "Recent graduates on what life after campus really looks like.",
    minSeconds: 9,
    maxSeconds: 14.5,
    format: "wav",
    chord: [174.61, 220, 261.63, 329.63],
  },
  {
    file: "audio/episode-4.wav",
    voice: "en-us",
    title: "SPIN RADIO Podcast - Episode 4",
    text: "Welcome to the SPIN RADIO podcast, episode four: Suara Mahasiswa. " + "Clubs or grades? Our guests weigh in.",
    minSeconds: 9,
    maxSeconds: 14.5,
    format: "wav",
    chord: [233.08, 293.66, 349.23, 440],
  },
];

function run(cmd: string, args: readonly string[]): string {
  return execFileSync(cmd, [...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function requireTool(cmd: string, probe: readonly string[]): void {
  try {
    execFileSync(cmd, [...probe], { stdio: "ignore" });
  } catch {
    throw new Error(`${cmd} is required (apt-get install espeak-ng sox lame)`);
  }
}

function duration(file: string): number {
  return Number(run("soxi", ["-D", file]).trim());
}

/** Speaks the intro, lays it over a soft chord bed, encodes; returns seconds. */
function makeAudio(spec: AudioSpec, work: string): number {
  const base = join(work, spec.file.replace(/[/.]/g, "_"));
  const speech = `${base}-speech.wav`;
  const voice = `${base}-voice.wav`;
  const bed = `${base}-bed.wav`;
  const mix = `${base}-mix.wav`;
  const rate = spec.format === "mp3" ? 44100 : 16000;

  run("espeak-ng", ["-v", spec.voice, "-s", "148", "-p", "42", "-g", "2", "-w", speech, spec.text]);
  const lead = spec.format === "mp3" ? 1.8 : 1.2;
  const tail = spec.format === "mp3" ? 2.5 : 1.5;
  const spoken = duration(speech);
  const total = Math.max(spec.minSeconds, Math.ceil(lead + spoken + tail));
  if (total > spec.maxSeconds) throw new Error(`${spec.file}: speech too long (${spoken.toFixed(1)} s)`);

  // Voice: a little warmth and compression, placed after the bed's fade-in.
  run("sox", [
    "-R",
    speech,
    "-r",
    String(rate),
    "-c",
    "1",
    voice,
    "highpass",
    "90",
    "equalizer",
    "3000",
    "1.2q",
    "2",
    "compand",
    "0.02,0.20",
    "-60,-60,-30,-12,0,-6",
    "0",
    "-90",
    "0.1",
    "pad",
    String(lead),
    "0",
    "norm",
    "-3",
  ]);
  const voiceLen = duration(voice);
  run("sox", ["-R", voice, `${voice}.padded.wav`, "pad", "0", (total - voiceLen).toFixed(3)]);

  // Bed: a soft sustained chord with a slow shimmer and gentle fades.
  const synthArgs: string[] = [];
  for (const f of spec.chord) synthArgs.push("sine", String(f));
  run("sox", [
    "-R",
    "-r",
    String(rate),
    "-c",
    String(spec.chord.length),
    "-n",
    "-b",
    "16",
    bed,
    "synth",
    String(total),
    ...synthArgs,
    "remix",
    "-",
    "tremolo",
    "0.25",
    "35",
    "lowpass",
    "1200",
    "fade",
    "q",
    String(lead - 0.3),
    String(total),
    String(tail),
    "norm",
    "-21",
  ]);

  run("sox", ["-R", "-m", `${voice}.padded.wav`, bed, "-b", "16", mix, "norm", "-1"]);

  const out = join(OUT, spec.file);
  mkdirSync(dirname(out), { recursive: true });
  if (spec.format === "mp3") {
    const episode = Number(/episode-(\d+)/.exec(spec.file)?.[1] ?? "0");
    run("lame", [
      "--quiet",
      "-m",
      "m",
      "-b",
      "64",
      "-q",
      "2",
      "--id3v2-only",
      "--tt",
      spec.title,
      "--ta",
      STATION.name,
      "--tl",
      `${STATION.name} Podcast`,
      "--ty",
      "2026",
      "--tn",
      String(episode),
      "--tg",
      "Podcast",
      mix,
      out,
    ]);
  } else {
    run("sox", ["-R", mix, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", out]);
  }
  return Math.round(duration(mix));
}

// ---------------------------------------------------------------------------
// 6. Manifest

const CREW_MEMBERS = [
  {
    name: "Dimas Pratama",
    age: 22,
    email: "dimas.pratama@spinradio.example",
    jobTitle: "Station Manager",
    address: "Jl. Kaliurang KM 5 No. 12, Sleman, Yogyakarta",
    bio: "Mahasiswa Ilmu Komunikasi yang sudah tiga tahun di SPIN RADIO. Memastikan siaran tetap jalan dari pagi sampai malam, dan selalu punya stok kopi di studio.",
  },
  {
    name: "Ayu Lestari",
    age: 21,
    email: "ayu.lestari@spinradio.example",
    jobTitle: "Program Director",
    address: "Jl. Gejayan No. 8, Depok, Sleman, Yogyakarta",
    bio: "Menyusun jadwal siaran dan program mingguan. Suka podcast true crime, musik city pop, dan rapat yang selesai tepat waktu.",
  },
  {
    name: "Raka Wijaya",
    age: 23,
    email: "raka.wijaya@spinradio.example",
    jobTitle: "Music Director",
    address: "Jl. Affandi No. 21, Catur Tunggal, Sleman, Yogyakarta",
    bio: "Kurator playlist SPIN RADIO. Rajin datang ke gigs band kampus dan percaya setiap lagu lokal layak diputar setidaknya sekali.",
  },
  {
    name: "Salsa Putri",
    age: 20,
    email: "salsa.putri@spinradio.example",
    jobTitle: "Podcast Producer",
    address: "Jl. Colombo No. 3, Karang Malang, Sleman, Yogyakarta",
    bio: "Memproduksi podcast mingguan, dari riset topik sampai mengedit audio. Menurutnya, cerita terbaik selalu datang dari pendengar.",
  },
  {
    name: "Bima Santoso",
    age: 22,
    email: "bima.santoso@spinradio.example",
    jobTitle: "Sound Engineer",
    address: "Jl. Seturan Raya No. 17, Caturtunggal, Sleman, Yogyakarta",
    bio: "Penjaga mixer dan kabel studio. Mahasiswa Teknik Elektro yang bisa memperbaiki hampir semua alat, kecuali jadwal tidurnya sendiri.",
  },
] as const;

function publishedAt(index: number): string {
  // Every four days at 10:00 WIB (03:00 UTC), the last one on 2026-11-20.
  const last = Date.UTC(2026, 10, 20, 3, 0, 0);
  return new Date(last - (EPISODES.length - 1 - index) * 4 * 86_400_000).toISOString();
}

// ---------------------------------------------------------------------------

function totalSize(dir: string): number {
  let sum = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    sum += entry.isDirectory() ? totalSize(full) : statSync(full).size;
  }
  return sum;
}

async function main(): Promise<void> {
  if (CREW.length !== 38) throw new Error(`expected 38 crew entries, got ${CREW.length}`);
  if (EPISODES.length !== 10 || COVER_STYLES.length !== 10) throw new Error("expected 10 episodes");
  requireTool("espeak-ng", ["--version"]);
  requireTool("sox", ["--version"]);
  requireTool("lame", ["--version"]);

  mkdirSync(OUT, { recursive: true });
  for (const sub of ["covers", "crew", "members", "audio"]) {
    rmSync(join(OUT, sub), { recursive: true, force: true });
    mkdirSync(join(OUT, sub), { recursive: true });
  }

  await writeJpeg(jumbotronSvg(), join(OUT, "jumbotron.jpg"), 84, 700_000);
  console.log("jumbotron.jpg");

  for (let i = 0; i < EPISODES.length; i++) {
    await writeJpeg(coverSvg(i), join(OUT, "covers", `cover-${pad2(i + 1)}.jpg`), 80, 200_000);
  }
  console.log(`covers: ${EPISODES.length}`);

  for (let i = 0; i < CREW.length; i++) {
    const svg = svgDoc(600, 800, portraitBody(i, `c${i}`, true));
    await writeJpeg(svg, join(OUT, "crew", `crew-${pad2(i + 1)}.jpg`), 80, 60_000);
  }
  console.log(`crew: ${CREW.length}`);

  // The crew members are the first five crew characters, cropped square without the label.
  for (let i = 0; i < CREW_MEMBERS.length; i++) {
    const first = CREW_MEMBERS[i]?.name.split(" ")[0];
    if (first !== CREW[i]?.[0]) throw new Error(`member ${i + 1} should be crew ${CREW[i]?.[0]}`);
    const svg = svgDoc(600, 600, portraitBody(i, `m${i}`, false), "10 105 580 580");
    await writeJpeg(svg, join(OUT, "members", `member-${pad2(i + 1)}.jpg`), 82, 60_000);
  }
  console.log(`members: ${CREW_MEMBERS.length}`);

  const work = mkdtempSync(join(tmpdir(), "spin-seed-"));
  const durations: number[] = [];
  try {
    for (const spec of AUDIO) {
      durations.push(makeAudio(spec, work));
      console.log(`${spec.file}: ${durations[durations.length - 1]} s`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const manifest = {
    station: { name: STATION.name, tagline: STATION.tagline },
    jumbotron: "jumbotron.jpg",
    episodes: EPISODES.map((episode, i) => {
      // Episodes 1-4 have their own intro; the rest reuse them in turn.
      const audioIndex = i % AUDIO.length;
      const audio = AUDIO[audioIndex];
      if (!audio) throw new Error("missing audio");
      return {
        title: episode.title,
        description: episode.description,
        cover: `covers/cover-${pad2(i + 1)}.jpg`,
        audio: audio.file,
        durationSeconds: durations[audioIndex] ?? 0,
        publishedAt: publishedAt(i),
      };
    }),
    crewImages: CREW.map((_, i) => ({ key: `Crew${i + 1}`, file: `crew/crew-${pad2(i + 1)}.jpg` })),
    crewMembers: CREW_MEMBERS.map((m, i) => ({ ...m, image: `members/member-${pad2(i + 1)}.jpg` })),
  };
  writeFileSync(join(OUT, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`manifest.json; total ${(totalSize(OUT) / 1024 / 1024).toFixed(2)} MB in ${OUT}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
