import type { Prisma } from "~/generated/prisma/client";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { sanitizeEmbed } from "~/services/embed-sanitizer.server";
import { publish } from "~/services/realtime.server";
import { dayKeyAt } from "~/utils/schedule-time";
import { activityMessage, logActivity, type AdminActor } from "./activity.server";
import { discardUnusedFiles } from "./files.server";

/*
 * The living demo a new station starts with (besides the bundled episodes, crew and images the
 * seed writes): a week of shows hosted by the seeded crew, upcoming events, chart players, and
 * the episodes' seasons, credits, transcripts and chapters. Everything the seed adds is listed
 * in one registry (a Setting row holding the ids), so an admin removes all of it in one step
 * and nothing they added themselves is touched.
 */

const REGISTRY_KEY = "demo.content";

/** The ids of every row the demo added; the registry row exists until the demo is removed. */
export interface DemoRegistry {
  episodes: number[];
  crewMembers: string[];
  crewImages: string[];
  shows: string[];
  events: string[];
  embeds: string[];
  /** Image slots with the image the demo put there (an admin's replacement is kept). */
  siteImages: { slot: string; imageId: string }[];
}

export function emptyRegistry(): DemoRegistry {
  return { episodes: [], crewMembers: [], crewImages: [], shows: [], events: [], embeds: [], siteImages: [] };
}

type Weekday = "MO" | "TU" | "WE" | "TH" | "FR" | "SA" | "SU";
const EVERY_DAY: Weekday[] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

interface DemoShow {
  slug: string;
  name: string;
  description: string;
  colour: string;
  /** Indexes into the seeded crew members (manifest order). */
  hosts: number[];
  slots: { days: Weekday[]; startTime: string; durationMinutes: number }[];
}

// Morning, afternoon, evening and late-night shows plus weekly specials: every day of any week
// has airings, and whatever the hour there is a show on now or next.
export const DEMO_SHOWS: DemoShow[] = [
  {
    slug: "ngopi-pagi",
    name: "Ngopi Pagi",
    description: "Teman ngopi sebelum kuliah: kabar kampus, lagu pembangun semangat dan tips bertahan di minggu ujian.",
    colour: "#f59e0b",
    hosts: [0, 1],
    slots: [{ days: EVERY_DAY, startTime: "06:00", durationMinutes: 180 }],
  },
  {
    slug: "campus-talk",
    name: "Campus Talk",
    description: "Afternoon conversations with students, lecturers and alumni about campus life and what comes after it.",
    colour: "#0ea5e9",
    hosts: [3, 1],
    slots: [{ days: ["MO", "TU", "WE", "TH", "FR"], startTime: "13:00", durationMinutes: 120 }],
  },
  {
    slug: "tech-corner",
    name: "Tech Corner",
    description: "Belajar teknologi dari nol bersama mahasiswa yang baru mulai ngoding.",
    colour: "#22c55e",
    hosts: [4],
    slots: [{ days: ["TU", "TH"], startTime: "16:00", durationMinutes: 60 }],
  },
  {
    slug: "indie-hour",
    name: "Indie Hour",
    description: "Satu jam lebih untuk band kampus dan musisi independen: rilisan baru, sesi akustik dan cerita di balik lagu.",
    colour: "#a855f7",
    hosts: [2],
    slots: [{ days: EVERY_DAY, startTime: "19:00", durationMinutes: 120 }],
  },
  {
    slug: "late-night-stories",
    name: "Late Night Stories",
    description: "Cerita pendengar menjelang tengah malam: lucu, haru, dan kadang sedikit seram.",
    colour: "#6366f1",
    hosts: [3],
    slots: [{ days: EVERY_DAY, startTime: "22:00", durationMinutes: 120 }],
  },
  {
    slug: "sports-weekly",
    name: "Sports Weekly",
    description: "The week in campus sport, every Saturday afternoon: results, previews and the captains' side of the story.",
    colour: "#ef4444",
    hosts: [4, 0],
    slots: [{ days: ["SA"], startTime: "15:00", durationMinutes: 120 }],
  },
  {
    slug: "behind-the-mic",
    name: "Behind the Mic",
    description: "Spesial mingguan: kru SPIN RADIO membuka dapur siaran, dari rapat redaksi sampai siaran terakhir.",
    colour: "#ec4899",
    hosts: [0, 2],
    slots: [{ days: ["SU"], startTime: "15:00", durationMinutes: 120 }],
  },
];

/** Upcoming events, dated this many days after the seeding; posters are the bundled covers. */
export const DEMO_EVENTS = [
  { name: "Malam Akustik SPIN RADIO", inDays: 4, time: "19:30", poster: "covers/cover-02.jpg" },
  { name: "Workshop Podcast untuk Pemula", inDays: 11, time: "13:00", poster: "covers/cover-05.jpg" },
  { name: "Campus Band Battle", inDays: 19, time: "18:00", poster: "covers/cover-06.jpg" },
  { name: "Open Studio: Tur Studio SPIN RADIO", inDays: 30, time: "10:00", poster: "covers/cover-10.jpg" },
] as const;

/** Chart players from allowed hosts (they load in the listener's browser). */
const DEMO_EMBEDS = [
  // Spotify's Top 50 Indonesia and Top 50 Global playlists.
  '<iframe src="https://open.spotify.com/embed/playlist/37i9dQZEVXbObFQZ3JLcXt" width="100%" height="352" frameborder="0" allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture" loading="lazy" title="Top 50 Indonesia"></iframe>',
  '<iframe src="https://open.spotify.com/embed/playlist/37i9dQZEVXbMDoHDwVN2tF" width="100%" height="352" frameborder="0" allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture" loading="lazy" title="Top 50 Global"></iframe>',
];

/** Transcripts and chapters of the two spoken MP3 intros (episodes 1 and 2 of the manifest). */
export const DEMO_EPISODE_EXTRAS: Record<number, { transcript: string; chapters: { startTime: number; title: string }[] }> = {
  0: {
    transcript: [
      "WEBVTT",
      "",
      "00:00:01.800 --> 00:00:07.500",
      "Selamat datang di podcast SPIN RADIO, episode satu: Ngopi Pagi.",
      "",
      "00:00:07.500 --> 00:00:14.500",
      "Kali ini kami membahas tips bertahan di minggu ujian tengah semester,",
      "",
      "00:00:14.500 --> 00:00:22.000",
      "mulai dari mengatur waktu belajar, tidur yang cukup, sampai mencari kopi terbaik di sekitar kampus.",
      "",
      "00:00:22.000 --> 00:00:27.500",
      "Ambil kopimu, duduk yang nyaman, dan dengarkan sampai habis.",
      "",
      "00:00:27.500 --> 00:00:33.500",
      "SPIN RADIO. Siaran langsung dari kampus, sepanjang hari.",
      "",
    ].join("\n"),
    chapters: [
      { startTime: 0, title: "Pembuka" },
      { startTime: 7.5, title: "Tips minggu UTS" },
      { startTime: 22, title: "Penutup" },
    ],
  },
  1: {
    transcript: [
      "WEBVTT",
      "",
      "00:00:01.800 --> 00:00:07.500",
      "Selamat datang di podcast SPIN RADIO, episode dua: Indie Hour.",
      "",
      "00:00:07.500 --> 00:00:13.500",
      "Malam ini kami ngobrol dengan tiga band kampus tentang rekaman pertama mereka,",
      "",
      "00:00:13.500 --> 00:00:20.000",
      "manggung di acara fakultas, dan mimpi tampil di festival musik besar.",
      "",
      "00:00:20.000 --> 00:00:25.500",
      "Jangan lupa kirim lagu favoritmu lewat media sosial kami.",
      "",
      "00:00:25.500 --> 00:00:31.500",
      "SPIN RADIO. Siaran langsung dari kampus, sepanjang hari.",
      "",
    ].join("\n"),
    chapters: [
      { startTime: 0, title: "Pembuka" },
      { startTime: 7.5, title: "Band kampus" },
      { startTime: 20, title: "Kirim lagu favoritmu" },
    ],
  },
};

/** "YYYY-MM-DD" `days` after `day` (calendar arithmetic, no time zone involved). */
function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** True when an admin (or an earlier version) already put content on the station: the demo stays out. */
export async function stationHasContent(tx: Prisma.TransactionClient = db()): Promise<boolean> {
  const counts = await Promise.all([
    tx.podcastEpisode.count(),
    tx.crewMember.count(),
    tx.crewImage.count(),
    tx.show.count(),
    tx.event.count(),
    tx.embed.count(),
    tx.siteImage.count(),
  ]);
  return counts.some((count) => count > 0);
}

/**
 * Writes the programme, events, chart and episode extras of the demo inside the seed's
 * transaction. `crew` are the seeded crew members' ids in manifest order, `episodes` the
 * seeded episodes (manifest order) with their titles; `posters` and `transcripts` are the
 * recorded files by manifest index. Adds every id to `registry`.
 */
export async function writeDemoProgramme(
  tx: Prisma.TransactionClient,
  input: {
    crew: string[];
    episodes: { id: number; title: string }[];
    posters: string[];
    transcripts: Map<number, string>;
    seededAt: Date;
  },
  registry: DemoRegistry,
): Promise<void> {
  const timeZone = getConfig().stationTimezone;
  const today = dayKeyAt(input.seededAt, timeZone);
  // The rules start two weeks back, so this week and the song history's recent days have airings.
  const firstDay = addDays(today, -14);
  const showIds = new Map<string, string>();
  for (const show of DEMO_SHOWS) {
    const created = await tx.show.create({
      data: {
        slug: show.slug,
        name: show.name,
        description: show.description,
        colour: show.colour,
        hosts: { create: show.hosts.flatMap((index, position) => (input.crew[index] ? [{ crewMemberId: input.crew[index], position }] : [])) },
        slots: {
          create: show.slots.map((slot) => ({
            startDate: firstDay,
            startTime: slot.startTime,
            durationMinutes: slot.durationMinutes,
            rrule: `FREQ=WEEKLY;BYDAY=${slot.days.join(",")}`,
          })),
        },
      },
      select: { id: true },
    });
    showIds.set(show.name, created.id);
    registry.shows.push(created.id);
  }

  // Episodes belong to the show their title names, are numbered in publication order and credit its hosts.
  for (const [index, episode] of input.episodes.entries()) {
    const show = DEMO_SHOWS.find((candidate) => episode.title.startsWith(`${candidate.name}:`));
    const hosts = (show?.hosts ?? [3]).map((member) => input.crew[member]).filter(Boolean);
    const producer = input.crew[3];
    const credits = [
      ...hosts.map((id) => ({ crewMemberId: id, role: "host" })),
      ...(producer && !hosts.includes(producer) ? [{ crewMemberId: producer, role: "producer" }] : []),
    ];
    const extras = DEMO_EPISODE_EXTRAS[index];
    await tx.podcastEpisode.update({
      where: { id: episode.id },
      data: {
        seasonNumber: 1,
        episodeNumber: index + 1,
        showId: show ? (showIds.get(show.name) ?? null) : null,
        credits: { create: credits.map((credit, position) => ({ ...credit, position })) },
        ...(extras ? { chapters: extras.chapters, transcriptId: input.transcripts.get(index) ?? null } : {}),
      },
    });
  }

  for (const [index, event] of DEMO_EVENTS.entries()) {
    const created = await tx.event.create({
      data: { name: event.name, date: new Date(`${addDays(today, event.inDays)}T00:00:00Z`), time: event.time, posterId: input.posters[index] },
      select: { id: true },
    });
    registry.events.push(created.id);
  }

  let position = 0;
  for (const code of DEMO_EMBEDS) {
    // Stored as an admin's paste would be; skipped when the operator's allow-list leaves the host out.
    const check = sanitizeEmbed(code);
    if (!check.ok) continue;
    const created = await tx.embed.create({ data: { code: check.code, position: ++position }, select: { id: true } });
    registry.embeds.push(created.id);
  }
}

export async function saveDemoRegistry(tx: Prisma.TransactionClient, registry: DemoRegistry): Promise<void> {
  await tx.setting.create({ data: { key: REGISTRY_KEY, value: JSON.stringify(registry) } });
}

/** What the demo added, or null when there is none (never seeded, or removed). */
export async function readDemoRegistry(): Promise<DemoRegistry | null> {
  const row = await db().setting.findUnique({ where: { key: REGISTRY_KEY } });
  return row ? { ...emptyRegistry(), ...(JSON.parse(row.value) as Partial<DemoRegistry>) } : null;
}

/**
 * Removes everything the demo added, in one transaction: its episodes (and those recorded from
 * its shows), crew, crew images, shows (with their slots, recordings and song history), events,
 * chart players and the jumbotron it set; then the files nothing points at any more. What an
 * admin added stays. False when there was no demo content.
 */
export async function removeDemoContent(actor: AdminActor): Promise<boolean> {
  const removed = await db().$transaction(
    async (tx) => {
      const row = await tx.setting.findUnique({ where: { key: REGISTRY_KEY } });
      if (!row) return false;
      const registry = { ...emptyRegistry(), ...(JSON.parse(row.value) as Partial<DemoRegistry>) };
      await tx.podcastEpisode.deleteMany({ where: { OR: [{ id: { in: registry.episodes } }, { showId: { in: registry.shows } }] } });
      // The song history is the demo programme's while the demo stream is what plays (no STREAM_URL).
      await tx.songPlay.deleteMany({ where: getConfig().streamUrl ? { showId: { in: registry.shows } } : {} });
      await tx.show.deleteMany({ where: { id: { in: registry.shows } } });
      await tx.event.deleteMany({ where: { id: { in: registry.events } } });
      await tx.embed.deleteMany({ where: { id: { in: registry.embeds } } });
      await tx.crewMember.deleteMany({ where: { id: { in: registry.crewMembers } } });
      await tx.crewImage.deleteMany({ where: { id: { in: registry.crewImages } } });
      for (const image of registry.siteImages) await tx.siteImage.deleteMany({ where: { slot: image.slot, imageId: image.imageId } });
      await tx.setting.delete({ where: { key: REGISTRY_KEY } });
      await logActivity(tx, actor, "demo.removed", activityMessage("admin.activityDemoRemoved"));
      return true;
    },
    { timeout: 60_000 },
  );
  if (!removed) return false;
  await discardUnusedFiles();
  for (const topic of ["images:changed", "events:changed", "embeds:changed", "schedule:changed", "history:changed"] as const) {
    publish(topic, { action: "deleted", records: [] });
  }
  return true;
}
