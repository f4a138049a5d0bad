import rrulePackage, { type Options as RRuleOptions, type RRule as RRuleType } from "rrule";
import { Prisma } from "~/generated/prisma/client";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { onContentChanged, publish } from "~/services/realtime.server";
import { serverI18n } from "~/i18n/catalogs.server";
import type { MessageKey } from "~/i18n/keys";
import { translator, type Translator } from "~/i18n/translate";
import { UploadError } from "~/services/uploads.server";
import { mediaUrlFor } from "~/utils/media";
import { parseForm, type FormResult } from "~/utils/forms/form";
import { durationField, slotSchema, type SlotFormValues, type SlotValue } from "~/utils/forms/schedule";
import { floatingMs, instantOfFloating, instantOfStationWall, parseWallKey, wallKey } from "~/utils/schedule-time";
import { activityMessage, logActivity, SYSTEM_ACTOR, type AdminActor } from "./activity.server";

/*
 * The programme: each show's slots are RFC 5545 data in the station's time
 * zone (DTSTART wall time + RRULE + EXDATE, one-off specials without RRULE,
 * moved airings as extra dates). Rules are expanded on wall-clock ("floating")
 * times with `rrule`, and each wall time is then turned into an instant in the
 * station's zone, so a weekly 20:00 show stays at 20:00 local across DST.
 */

// rrule is CommonJS: Node's ESM loader (the production server) sees only its default export.
const { RRule } = rrulePackage;
type RRule = RRuleType;

/** English, for the activity log and the logs (they stay in one language). */
const logTranslator = (): Translator => translator(serverI18n("en"));

/**
 * A schedule refusal (overlap, unknown airing): shown to the admin in their
 * language (the route calls `text` with its translator); nothing was changed.
 * The message is English, for logs and for callers that do not translate.
 */
export class ScheduleError extends UploadError {
  name = "ScheduleError";
  constructor(readonly text: (translator: Translator) => string) {
    super(text(logTranslator()));
  }

  /** A refusal that is one message. */
  static of(key: MessageKey, values?: Record<string, string | number>): ScheduleError {
    return new ScheduleError(({ t }) => t(key, values));
  }
}

// Defined beside the client code that renders them (a `.server` module is empty in the browser).
import { slotDays, WEEKDAYS, type SlotRule, type Weekday } from "~/utils/weekdays";

export { slotDays, WEEKDAYS, type Weekday };

// Overlaps are checked over this many days from the slot's first future airing: a weekly pattern repeats well within it.
const OVERLAP_HORIZON_DAYS = 400;
const DAY_MS = 86_400_000;

const slotSelect = {
  id: true,
  showId: true,
  startDate: true,
  startTime: true,
  durationMinutes: true,
  rrule: true,
  endDate: true,
  exdates: true,
  updatedAt: true,
  moves: { select: { originalStart: true, newStart: true, durationMinutes: true }, orderBy: { newStart: "asc" } },
} satisfies Prisma.ShowSlotSelect;

const programmeSelect = {
  id: true,
  slug: true,
  name: true,
  colour: true,
  artwork: { select: { key: true, variantWidths: true } },
  hosts: { select: { crewMember: { select: { id: true, name: true } } }, orderBy: { position: "asc" } },
  slots: { select: slotSelect, orderBy: [{ startDate: "asc" }, { startTime: "asc" }] },
} satisfies Prisma.ShowSelect;

type SlotRow = Prisma.ShowSlotGetPayload<{ select: typeof slotSelect }>;
type ProgrammeShow = Prisma.ShowGetPayload<{ select: typeof programmeSelect }>;

export interface Airing {
  slotId: string;
  showId: string;
  slug: string;
  name: string;
  colour: string;
  /** URL of the show's artwork (its smallest copy), null when it has none. */
  artwork: string | null;
  hosts: { id: string; name: string }[];
  start: Date;
  end: Date;
  /** The wall-clock start the rule gave this airing ("YYYY-MM-DDTHH:MM"): its identity for cancel and move. */
  originalStart: string;
  moved: boolean;
  /** A one-off special (a slot without a recurrence rule). */
  special: boolean;
}

const WEEK_MS = 7 * DAY_MS;

// Parsed rule options are reused until the slot changes (expansion runs on every schedule page view).
const ruleCache = new Map<string, { options: Partial<RRuleOptions>; dtstart: number; until: number | null; periodMs: number | null }>();

type RuleSlot = Pick<SlotRow, "id" | "updatedAt" | "rrule" | "startDate" | "startTime" | "endDate">;

/**
 * The slot's rule, ready to expand near `fromFloating`. rrule always iterates
 * from DTSTART, so a weekly rule without COUNT starts at a whole number of its
 * periods before the window instead: the same airings, without walking every
 * week since the show began.
 */
function ruleFor(slot: RuleSlot, fromFloating: number): RRule | null {
  if (!slot.rrule) return null;
  const key = `${slot.id}@${slot.updatedAt.getTime()}`;
  let parsed = ruleCache.get(key);
  if (!parsed) {
    const options = RRule.parseString(slot.rrule);
    const until = slot.endDate ? floatingMs(parseWallKey(`${slot.endDate}T23:59`)!) : null;
    const simpleWeekly = options.freq === RRule.WEEKLY && !options.count && !options.bysetpos;
    parsed = {
      options,
      dtstart: floatingMs(parseWallKey(`${slot.startDate}T${slot.startTime}`)!),
      until,
      periodMs: simpleWeekly ? (options.interval ?? 1) * WEEK_MS : null,
    };
    if (ruleCache.size > 5000) ruleCache.clear();
    ruleCache.set(key, parsed);
  }
  const periods = parsed.periodMs ? Math.max(0, Math.floor((fromFloating - parsed.dtstart) / parsed.periodMs) - 1) : 0;
  const dtstart = parsed.dtstart + periods * (parsed.periodMs ?? 0);
  return new RRule({ ...parsed.options, dtstart: new Date(dtstart), until: parsed.until === null ? null : new Date(parsed.until) });
}

/** The floating starts (wall clock written as UTC ms) a slot's rule gives between two floating times, EXDATEs included. */
function ruleStarts(slot: RuleSlot, fromFloating: number, toFloating: number): number[] {
  if (!slot.rrule) {
    const once = floatingMs(parseWallKey(`${slot.startDate}T${slot.startTime}`)!);
    return once >= fromFloating && once <= toFloating ? [once] : [];
  }
  const starts: number[] = [];
  for (let bucket = Math.floor(fromFloating / BUCKET_MS); bucket * BUCKET_MS <= toFloating; bucket++) {
    for (const start of bucketStarts(slot, bucket)) if (start >= fromFloating && start <= toFloating) starts.push(start);
  }
  return starts;
}

// Expanded starts are kept per slot version and 64-day span: schedule pages, on-air lookups and
// overlap checks ask for the same weeks again and again, and rrule is the costly part.
const BUCKET_MS = 64 * DAY_MS;
const bucketCache = new Map<string, number[]>();

function bucketStarts(slot: RuleSlot, bucket: number): number[] {
  const key = `${slot.id}@${slot.updatedAt.getTime()}|${bucket}`;
  let starts = bucketCache.get(key);
  if (!starts) {
    const from = bucket * BUCKET_MS;
    starts = ruleFor(slot, from)!
      .between(new Date(from), new Date(from + BUCKET_MS - 1), true)
      .map((date) => date.getTime());
    if (bucketCache.size > 50_000) bucketCache.clear();
    bucketCache.set(key, starts);
  }
  return starts;
}

/** "YYYY-MM-DDTHH:MM" of a floating time. */
const wallKeyOfFloating = (ms: number) => new Date(ms).toISOString().slice(0, 16);

/**
 * Every airing of `shows` that overlaps [from, to), in start order. Wall times
 * are read in `timeZone` (the station's), see instantOfStationWall for the
 * DST rule.
 */
export function expandAirings(shows: ProgrammeShow[], from: Date, to: Date, timeZone: string): Airing[] {
  // Wall times may be up to 14 h either side of UTC, and an airing up to a day long.
  const fromFloating = from.getTime() - 2 * DAY_MS;
  const toFloating = to.getTime() + DAY_MS;
  const fromMs = from.getTime();
  const toMs = to.getTime();
  const airings: Airing[] = [];
  for (const show of shows) {
    const hosts = show.hosts.map((host) => host.crewMember);
    const artwork = show.artwork ? mediaUrlFor(show.artwork, 320) : null;
    for (const slot of show.slots) {
      const removed = new Set(slot.exdates);
      const push = (wallMs: number, originalStart: string, minutes: number, moved: boolean) => {
        const start = instantOfFloating(wallMs, timeZone);
        const end = start + minutes * 60_000;
        // Properties written out, not spread from a shared object: V8's spread made a year's
        // expansion (5,000+ airings) cost 15 times as much.
        if (end > fromMs && start < toMs)
          airings.push({
            slotId: slot.id,
            showId: show.id,
            slug: show.slug,
            name: show.name,
            colour: show.colour,
            artwork,
            hosts,
            start: new Date(start),
            end: new Date(end),
            originalStart,
            moved,
            special: !slot.rrule,
          });
      };
      for (const wallMs of ruleStarts(slot, fromFloating, toFloating)) {
        const wall = wallKeyOfFloating(wallMs);
        if (!removed.has(wall)) push(wallMs, wall, slot.durationMinutes, false);
      }
      for (const move of slot.moves) push(floatingMs(parseWallKey(move.newStart)!), move.originalStart, move.durationMinutes, true);
    }
  }
  return airings.sort((a, b) => a.start.getTime() - b.start.getTime() || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function loadProgramme(tx: Prisma.TransactionClient = db()): Promise<ProgrammeShow[]> {
  return tx.show.findMany({ select: programmeSelect, orderBy: { name: "asc" } });
}

let programme: Promise<ProgrammeShow[]> | null = null;
let forgetOnChange = false;

/**
 * The programme as pages read it, kept in memory until any change is
 * published (here or by another instance): every page view, on-air lookup
 * and recorded song needs it, and it changes only when an admin edits it.
 */
export function readProgramme(): Promise<ProgrammeShow[]> {
  if (!forgetOnChange) {
    forgetOnChange = true;
    onContentChanged(() => {
      programme = null;
    });
  }
  programme ??= loadProgramme().catch((error: unknown) => {
    programme = null;
    throw error;
  });
  return programme;
}

/** The station's airings overlapping [from, to). */
export async function listAirings(from: Date, to: Date): Promise<Airing[]> {
  return expandAirings(await readProgramme(), from, to, getConfig().stationTimezone);
}

/** A show's next airings from `now` on. */
export async function listShowAirings(showId: string, now: Date, count: number): Promise<Airing[]> {
  const shows = await db().show.findMany({ where: { id: showId }, select: programmeSelect });
  const airings = expandAirings(shows, now, new Date(now.getTime() + OVERLAP_HORIZON_DAYS * DAY_MS), getConfig().stationTimezone);
  return airings.slice(0, count);
}

export interface OnAir {
  now: Airing | null;
  next: Airing | null;
}

// The last answer of getOnAir, good for the same programme until what is on air changes.
let onAirMemo: { shows: ProgrammeShow[]; from: number; until: number; value: OnAir } | null = null;

/**
 * What is on air at `at` and the airing after it. Every page's player bar asks
 * this, so the answer is kept until the current airing ends or the next
 * starts (or the programme changes); a day is expanded before two weeks.
 */
export async function getOnAir(at: Date): Promise<OnAir> {
  const shows = await readProgramme();
  const time = at.getTime();
  if (onAirMemo && onAirMemo.shows === shows && time >= onAirMemo.from && time < onAirMemo.until) return onAirMemo.value;
  const timeZone = getConfig().stationTimezone;
  let value: OnAir = { now: null, next: null };
  for (const days of [1, 15]) {
    const airings = expandAirings(shows, at, new Date(time + days * DAY_MS), timeZone);
    const now = airings.find((airing) => airing.start <= at && airing.end > at) ?? null;
    const next = airings.find((airing) => airing.start > at && airing !== now) ?? null;
    value = { now, next };
    if (next) break;
  }
  const until = Math.min(value.now?.end.getTime() ?? Infinity, value.next?.start.getTime() ?? time + DAY_MS);
  onAirMemo = { shows, from: time, until, value };
  return value;
}

/** On now and up next as the player bar shows them (every page's root data: kept small). */
export interface BarOnAir {
  now: { slug: string; name: string; hosts: string; end: string; artwork: string | null } | null;
  next: { slug: string; name: string; start: string } | null;
}

export async function getBarOnAir(at: Date): Promise<BarOnAir> {
  const { now, next } = await getOnAir(at);
  return {
    now: now && { slug: now.slug, name: now.name, hosts: now.hosts.map((host) => host.name).join(", "), end: now.end.toISOString(), artwork: now.artwork },
    next: next && { slug: next.slug, name: next.name, start: next.start.toISOString() },
  };
}

/** The show on air at `at` (song history attaches it). */
export async function showOnAirAt(at: Date): Promise<{ id: string; name: string } | null> {
  const airings = await listAirings(new Date(at.getTime() - DAY_MS), new Date(at.getTime() + 1));
  const airing = airings.find((candidate) => candidate.start <= at && candidate.end > at);
  return airing ? { id: airing.showId, name: airing.name } : null;
}

// ---------------------------------------------------------------- slot input

export interface SlotInput {
  /** "weekly": on the given days from startDate (to endDate); "once": a one-off special on startDate. */
  kind: "weekly" | "once";
  days: Weekday[];
  startDate: string;
  startTime: string;
  durationMinutes: number;
  endDate: string | null;
}

/** A slot as RFC 5545 data (startDate, startTime, durationMinutes, rrule, endDate), or the form's refusal. */
export type SlotCheck = FormResult<SlotValue>;

const typedDuration = durationField("schedule.durationInvalid");

/** A duration typed in a form ("60"): whole minutes within the slot schema's limits, else null. */
export function parseDuration(value: string): number | null {
  const check = typedDuration.safeParse(value);
  return check.success ? check.data : null;
}

/**
 * Checks a slot with the slot form's schema (slotSchema) and turns it into RFC 5545 data. Takes the
 * form's fields (duration as typed) or a SlotInput from code; the message is the first problem.
 */
export function validateSlot(input: SlotInput | SlotFormValues): SlotCheck {
  const values = "durationMinutes" in input ? { ...input, duration: input.durationMinutes } : input;
  const check = parseForm(slotSchema, values, "");
  return check.ok ? check : { ...check, message: Object.values(check.errors)[0] };
}

// ---------------------------------------------------------------- overlap

const whenFormat = (timeZone: string, locale: string) =>
  new Intl.DateTimeFormat(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  });

/**
 * Refuses a programme in which two airings overlap in the next
 * OVERLAP_HORIZON_DAYS (from `from`), naming the first clash.
 */
async function refuseOverlaps(tx: Prisma.TransactionClient, changedSlotId: string, from: Date): Promise<void> {
  const timeZone = getConfig().stationTimezone;
  const airings = expandAirings(await loadProgramme(tx), from, new Date(from.getTime() + OVERLAP_HORIZON_DAYS * DAY_MS), timeZone);
  let latest: Airing | null = null;
  for (const airing of airings) {
    if (latest && airing.start < latest.end && (airing.slotId === changedSlotId || latest.slotId === changedSlotId)) {
      const [mine, theirs] = airing.slotId === changedSlotId ? [airing, latest] : [latest, airing];
      throw new ScheduleError(({ t, locale }) => {
        const time = whenFormat(timeZone, locale);
        return t("schedule.overlap", {
          other: theirs.name,
          start: time.format(theirs.start),
          end: time.format(theirs.end).slice(-5),
          show: mine.name,
          at: time.format(mine.start),
        });
      });
    }
    if (!latest || airing.end > latest.end) latest = airing;
  }
}

// Schedule writes take turns so two admins cannot each pass the overlap check and then clash.
async function lockSchedule(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock(2020112301)");
}

function publishSchedule(action: "created" | "updated" | "deleted", records: unknown[]): void {
  publish("schedule:changed", { action, records });
}

function overlapFrom(startDate: string): Date {
  const start = instantOfStationWall(parseWallKey(`${startDate}T00:00`)!, getConfig().stationTimezone);
  const now = new Date(Date.now() - DAY_MS);
  return start > now ? start : now;
}

/** Adds a slot (weekly rule or one-off special) to a show; refused when it overlaps another airing. */
export async function createSlot(showId: string, slot: Extract<SlotCheck, { ok: true }>["value"], actor: AdminActor = SYSTEM_ACTOR) {
  const created = await db().$transaction(async (tx) => {
    await lockSchedule(tx);
    const show = await tx.show.findUnique({ where: { id: showId }, select: { id: true, name: true } });
    if (!show) throw ScheduleError.of("schedule.showGone");
    const row = await tx.showSlot.create({ data: { showId, ...slot }, select: { id: true } });
    await refuseOverlaps(tx, row.id, overlapFrom(slot.startDate));
    await logActivity(tx, actor, "schedule.slot-created", activityMessage("admin.activitySlotCreated", { show: show.name, slot: { slot: slotRule(slot) } }));
    return row;
  });
  publishSchedule("created", [{ id: created.id, showId }]);
  return created;
}

/** Changes a slot's rule; its cancelled and moved airings are kept. */
export async function updateSlot(slotId: string, slot: Extract<SlotCheck, { ok: true }>["value"], actor: AdminActor = SYSTEM_ACTOR) {
  await db().$transaction(async (tx) => {
    await lockSchedule(tx);
    const previous = await tx.showSlot.findUnique({ where: { id: slotId }, select: { show: { select: { name: true } } } });
    if (!previous) throw ScheduleError.of("schedule.slotGone");
    await tx.showSlot.update({ where: { id: slotId }, data: slot });
    await refuseOverlaps(tx, slotId, overlapFrom(slot.startDate));
    await logActivity(
      tx,
      actor,
      "schedule.slot-updated",
      activityMessage("admin.activitySlotUpdated", { show: previous.show.name, slot: { slot: slotRule(slot) } }),
    );
  });
  publishSchedule("updated", [{ id: slotId }]);
}

export async function deleteSlot(slotId: string, actor: AdminActor = SYSTEM_ACTOR): Promise<void> {
  await db().$transaction(async (tx) => {
    const slot = await tx.showSlot.findUnique({
      where: { id: slotId },
      select: { startDate: true, startTime: true, durationMinutes: true, rrule: true, endDate: true, show: { select: { name: true } } },
    });
    if (!slot) throw ScheduleError.of("schedule.slotGone");
    await tx.showSlot.delete({ where: { id: slotId } });
    await logActivity(
      tx,
      actor,
      "schedule.slot-deleted",
      activityMessage("admin.activitySlotDeleted", { show: slot.show.name, slot: { slot: slotRule(slot) } }),
    );
  });
  publishSchedule("deleted", [{ id: slotId }]);
}

/** Whether the slot's rule (EXDATEs aside) gives an airing at the wall time `wall` ("YYYY-MM-DDTHH:MM"). */
export function slotAirsAt(slot: RuleSlot, wall: string): boolean {
  const parsed = parseWallKey(wall);
  if (!parsed) return false;
  const ms = floatingMs(parsed);
  return ruleStarts(slot, ms, ms).includes(ms);
}

/** Checks that `originalStart` is an airing the slot's rule gives (and not already taken out). */
function requireRuleAiring(slot: SlotRow, originalStart: string): void {
  const wall = parseWallKey(originalStart);
  if (!wall) throw ScheduleError.of("schedule.airingNotDateTime");
  const ms = floatingMs(wall);
  if (!ruleStarts(slot, ms, ms).includes(ms)) throw ScheduleError.of("schedule.notAiringThen");
}

/** Cancels one airing of a slot (an EXDATE); a moved airing is cancelled too. */
export async function cancelAiring(slotId: string, originalStart: string, actor: AdminActor = SYSTEM_ACTOR): Promise<void> {
  await db().$transaction(async (tx) => {
    await lockSchedule(tx);
    const slot = await tx.showSlot.findUnique({ where: { id: slotId }, select: { ...slotSelect, show: { select: { name: true } } } });
    if (!slot) throw ScheduleError.of("schedule.slotGone");
    requireRuleAiring(slot, originalStart);
    const key = wallKey(parseWallKey(originalStart)!);
    await tx.airingMove.deleteMany({ where: { slotId, originalStart: key } });
    if (!slot.exdates.includes(key)) await tx.showSlot.update({ where: { id: slotId }, data: { exdates: { push: key } } });
    await logActivity(tx, actor, "schedule.airing-cancelled", activityMessage("admin.activityAiringCancelled", { show: slot.show.name, at: { at: key } }));
  });
  publishSchedule("updated", [{ id: slotId }]);
}

/** Moves one airing to another wall-clock time (EXDATE for the original, an extra date for the new one). */
export async function moveAiring(
  slotId: string,
  originalStart: string,
  newStart: string,
  durationMinutes: number,
  actor: AdminActor = SYSTEM_ACTOR,
): Promise<void> {
  const target = parseWallKey(newStart);
  if (!target) throw ScheduleError.of("schedule.newStartInvalid");
  if (parseDuration(String(durationMinutes)) === null) throw ScheduleError.of("schedule.durationInvalid");
  await db().$transaction(async (tx) => {
    await lockSchedule(tx);
    const slot = await tx.showSlot.findUnique({ where: { id: slotId }, select: { ...slotSelect, show: { select: { name: true } } } });
    if (!slot) throw ScheduleError.of("schedule.slotGone");
    requireRuleAiring(slot, originalStart);
    const key = wallKey(parseWallKey(originalStart)!);
    const to = wallKey(target);
    await tx.airingMove.upsert({
      where: { slotId_originalStart: { slotId, originalStart: key } },
      create: { slotId, originalStart: key, newStart: to, durationMinutes },
      update: { newStart: to, durationMinutes },
    });
    await tx.showSlot.update({ where: { id: slotId }, data: slot.exdates.includes(key) ? { updatedAt: new Date() } : { exdates: { push: key } } });
    const timeZone = getConfig().stationTimezone;
    const earliest = [key, to].map((wall) => instantOfStationWall(parseWallKey(wall)!, timeZone)).sort((a, b) => a.getTime() - b.getTime())[0];
    await refuseOverlaps(tx, slotId, new Date(Math.max(earliest.getTime() - DAY_MS, Date.now() - DAY_MS)));
    await logActivity(
      tx,
      actor,
      "schedule.airing-moved",
      activityMessage("admin.activityAiringMoved", { show: slot.show.name, from: { at: key }, to: { at: to } }),
    );
  });
  publishSchedule("updated", [{ id: slotId }]);
}

/** The rule of a slot, as the activity log keeps it (its own words come when it is read). */
function slotRule({ startDate, startTime, durationMinutes, rrule, endDate }: SlotRule): SlotRule {
  return { startDate, startTime, durationMinutes, rrule, endDate };
}

/** An airing as pages receive it (times as ISO strings). */
export interface PublicAiring {
  slotId: string;
  slug: string;
  name: string;
  colour: string;
  artwork: string | null;
  hosts: { id: string; name: string }[];
  start: string;
  end: string;
  originalStart: string;
  moved: boolean;
  special: boolean;
}

export function toPublicAiring(airing: Airing): PublicAiring {
  return {
    slotId: airing.slotId,
    slug: airing.slug,
    name: airing.name,
    colour: airing.colour,
    artwork: airing.artwork,
    hosts: airing.hosts,
    start: airing.start.toISOString(),
    end: airing.end.toISOString(),
    originalStart: airing.originalStart,
    moved: airing.moved,
    special: airing.special,
  };
}
