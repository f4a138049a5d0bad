import type { Prisma } from "~/generated/prisma/client";
import { getConfig } from "~/services/config.server";
import { spreadsheetCsv } from "~/services/csv.server";
import { db, likeLiteral } from "~/services/db.server";
import { cachedRead } from "~/services/read-cache.server";
import { publish } from "~/services/realtime.server";
import { cleanStreamTitle } from "~/services/stream-metadata.server";
import { showOnAirAt } from "./schedule.server";

/*
 * What the station played: one row per title change of the live stream, with
 * the show on air at the time. Pages read it newest first with keyset paging
 * on the (playedAt, id) index, so page 20,000 costs what page 1 costs.
 */

export const HISTORY_PAGE_SIZE = 50;
const PRUNE_INTERVAL_MS = 3_600_000;

const songSelect = { id: true, playedAt: true, raw: true, artist: true, title: true, showName: true, show: { select: { slug: true } } } as const;
type SongRow = Prisma.SongPlayGetPayload<{ select: typeof songSelect }>;

/** A played song as pages and JSON show it. */
export interface Song {
  id: string;
  playedAt: string;
  artist: string;
  title: string;
  raw: string;
  show: { name: string; slug: string | null } | null;
}

function toSong(row: SongRow): Song {
  return {
    id: row.id.toString(),
    playedAt: row.playedAt.toISOString(),
    artist: row.artist,
    title: row.title,
    raw: row.raw,
    show: row.showName ? { name: row.showName, slug: row.show?.slug ?? null } : null,
  };
}

const DASHES = new Set(["-", "\u2013", "\u2014"]);
const isSpace = (char: string | undefined) => char !== undefined && char.trim() === "";

/**
 * "Artist - Title" (the ICY StreamTitle convention) split at the first dash with spaces on both
 * sides and text before and after it; otherwise all title. One pass over the title (the pattern
 * /^(.+?)\s+[-–—]\s+(.+)$/ it replaces backtracked quadratically on runs of spaces and dashes).
 */
export function splitArtistTitle(raw: string): { artist: string; title: string } {
  const lastText = raw.trimEnd().length - 1;
  // Whether the artist part (before the space ahead of position i) holds text.
  let artistHasText = false;
  for (let i = 1; i < raw.length - 1; i++) {
    if (i >= 2 && !isSpace(raw[i - 2])) artistHasText = true;
    if (DASHES.has(raw[i]) && isSpace(raw[i - 1]) && isSpace(raw[i + 1]) && artistHasText && lastText > i + 1) {
      return { artist: raw.slice(0, i - 1).trim(), title: raw.slice(i + 2).trim() };
    }
  }
  return { artist: "", title: raw };
}

let lastPrune = 0;

/**
 * Stores a title change read from the live stream (called by the stream
 * follower): exact repeats of the current title are skipped, the show on air
 * at `at` is attached, "Artist - Title" is split, and `history:changed` is
 * published. Returns the stored song, or null when nothing was stored.
 */
export async function recordSongChange({ title, at }: { title: string; at: Date }): Promise<Song | null> {
  // Cleaned where it left the stream already (the one cleaning of titles); again, so no caller stores anything else.
  const raw = cleanStreamTitle(title);
  if (!raw || Number.isNaN(at.getTime())) return null;
  const latest = await db().songPlay.findFirst({ orderBy: [{ playedAt: "desc" }, { id: "desc" }], select: { raw: true } });
  if (latest?.raw === raw) return null;
  const show = await showOnAirAt(at);
  const row = await db().songPlay.create({
    data: { playedAt: at, raw, ...splitArtistTitle(raw), showId: show?.id ?? null, showName: show?.name ?? "" },
    select: songSelect,
  });
  const song = toSong(row);
  publish("history:changed", { action: "created", records: [song] });
  if (Date.now() - lastPrune > PRUNE_INTERVAL_MS) {
    lastPrune = Date.now();
    await pruneSongHistory();
  }
  return song;
}

/** Removes songs older than HISTORY_DAYS; returns how many. */
export async function pruneSongHistory(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - getConfig().historyDays * 86_400_000);
  const { count } = await db().songPlay.deleteMany({ where: { playedAt: { lt: cutoff } } });
  if (count > 0) publish("history:changed", { action: "deleted", records: [] });
  return count;
}

/** The last `count` songs, newest first (/listen). */
export function listRecentSongs(count = 10): Promise<Song[]> {
  return cachedRead(`recentSongs:${count}`, async () => {
    const rows = await db().songPlay.findMany({ orderBy: [{ playedAt: "desc" }, { id: "desc" }], take: count, select: songSelect });
    return rows.map(toSong);
  });
}

/** A position in the history: songs strictly older than this come next. */
export interface HistoryCursor {
  playedAt: Date;
  id: bigint;
}

export function encodeCursor(song: Song): string {
  return `${Date.parse(song.playedAt)}.${song.id}`;
}

export function decodeCursor(value: string | null): HistoryCursor | null {
  const match = /^(\d{1,15})\.(\d{1,19})$/.exec(value ?? "");
  if (!match) return null;
  return { playedAt: new Date(Number(match[1])), id: BigInt(match[2]) };
}

function searchWhere(q: string): Prisma.SongPlayWhereInput {
  const text = cleanStreamTitle(q).slice(0, 100);
  // "100%" finds titles holding "100%", not every title starting with "100".
  return text ? { raw: { contains: likeLiteral(text), mode: "insensitive" } } : {};
}

/**
 * One page of the history, newest first: after `cursor`, or from `at` (jump to
 * a time) backwards, optionally only songs whose title or artist contains `q`.
 */
export async function listSongHistory(options: { cursor?: HistoryCursor | null; at?: Date | null; q?: string; limit?: number }) {
  const limit = Math.min(Math.max(options.limit ?? HISTORY_PAGE_SIZE, 1), 500);
  const position: Prisma.SongPlayWhereInput = options.cursor
    ? // The plain bound lets PostgreSQL start the index scan at the cursor; the OR settles equal times.
      { playedAt: { lte: options.cursor.playedAt }, OR: [{ playedAt: { lt: options.cursor.playedAt } }, { id: { lt: options.cursor.id } }] }
    : options.at
      ? { playedAt: { lte: options.at } }
      : {};
  const rows = await db().songPlay.findMany({
    where: { AND: [position, searchWhere(options.q ?? "")] },
    orderBy: [{ playedAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: songSelect,
  });
  const songs = rows.slice(0, limit).map(toSong);
  return { songs, nextCursor: rows.length > limit ? encodeCursor(songs[songs.length - 1]) : null };
}

/** Songs played in [from, to), newest first, at most `limit` (for /history.json). */
export async function listSongsBetween(options: { from: Date | null; to: Date | null; q?: string; limit: number }): Promise<Song[]> {
  const rows = await db().songPlay.findMany({
    where: {
      AND: [
        options.from || options.to ? { playedAt: { ...(options.from ? { gte: options.from } : {}), ...(options.to ? { lt: options.to } : {}) } } : {},
        searchWhere(options.q ?? ""),
      ],
    },
    orderBy: [{ playedAt: "desc" }, { id: "desc" }],
    take: options.limit,
    select: songSelect,
  });
  return rows.map(toSong);
}

const CSV_BATCH = 5000;

/**
 * The history in [from, to) as CSV for licensing reports, oldest first,
 * produced in batches so a year of songs never sits in memory at once.
 */
export function songHistoryCsv(from: Date, to: Date, timeZone: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: HistoryCursor | null = null;
  let headerSent = false;
  const local = new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(spreadsheetCsv([["played_at_utc", `played_at_local (${timeZone})`, "artist", "title", "stream_title", "show"]])));
      }
      const position: Prisma.SongPlayWhereInput = after
        ? { playedAt: { gte: after.playedAt }, OR: [{ playedAt: { gt: after.playedAt } }, { id: { gt: after.id } }] }
        : {};
      const rows = await db().songPlay.findMany({
        where: { AND: [{ playedAt: { gte: from, lt: to } }, position] },
        orderBy: [{ playedAt: "asc" }, { id: "asc" }],
        take: CSV_BATCH,
        select: songSelect,
      });
      if (rows.length > 0) {
        const last = rows[rows.length - 1];
        after = { playedAt: last.playedAt, id: last.id };
        const records = rows.map((row) => [row.playedAt.toISOString(), local.format(row.playedAt), row.artist, row.title, row.raw, row.showName]);
        // Titles come from the stream: nothing in them may run as a formula, whatever the separator.
        controller.enqueue(encoder.encode(spreadsheetCsv(records)));
      }
      if (rows.length < CSV_BATCH) controller.close();
    },
  });
}
