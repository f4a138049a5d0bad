import { Prisma } from "~/generated/prisma/client";
import { stationTranslator } from "~/i18n/catalogs.server";
import type { Translator } from "~/i18n/translate";
import { db } from "~/services/db.server";
import { publish } from "~/services/realtime.server";
import { UploadError } from "~/services/uploads.server";
import { eventProblem, eventSchema } from "~/utils/forms/event";
import { parseForm, type FormResult } from "~/utils/forms/form";
import { activityMessage, logActivity, SYSTEM_ACTOR, type AdminActor } from "./activity.server";
import { commitFileChange, uploadImage } from "./files.server";

const eventSelect = {
  id: true,
  uid: true,
  name: true,
  date: true,
  time: true,
  createdAt: true,
  poster: { select: { key: true, width: true, height: true, variantWidths: true } },
} as const;

/** All events, oldest upload first; the last one is "the latest event" of the popup. */
export function listEvents() {
  return db().event.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: eventSelect });
}

export type EventListItem = Awaited<ReturnType<typeof listEvents>>[number];

export interface NewEvent {
  name: string;
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM, in the station's time zone */
  time: string;
  poster: Buffer;
}

export type EventChanges = Omit<NewEvent, "poster"> & { poster: Buffer | null };

type Translate = Translator["t"];

/** Refusals without a request behind them (seeds, scripts) are worded in the station's language. */
function stationT(): Translate {
  return stationTranslator().t;
}

/**
 * Checks the event form with its schema: poster (when adding), name, date and time are all
 * needed; then the date and time must be real ones. Its messages are message keys for the route to translate.
 */
export function validateEvent(values: Record<string, unknown>, editing: boolean): FormResult<Omit<NewEvent, "poster">> {
  const check = parseForm(eventSchema(editing), values, "");
  if (!check.ok) return { ok: false, ...eventProblem(check.errors) };
  const { poster: _poster, ...value } = check.value;
  return { ok: true, value };
}

function friendlyWriteError(error: unknown, name: string, t: Translate): unknown {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
    return new UploadError(t("events.nameTaken", { name }));
  }
  return error;
}

/**
 * Stores the poster, then the event; publishes `events:changed`. Nothing is kept if any step fails.
 * `t` words a refusal in the admin's language.
 */
export async function createEvent(input: NewEvent, actor: AdminActor = SYSTEM_ACTOR, t: Translate = stationT()): Promise<EventListItem> {
  const poster = await uploadImage(input.poster, "event-posters");
  let event: EventListItem;
  try {
    event = await commitFileChange(poster, async (tx, file) => {
      const created = await tx.event.create({
        data: { name: input.name, date: new Date(`${input.date}T00:00:00Z`), time: input.time, posterId: file!.id },
        select: eventSelect,
      });
      await logActivity(
        tx,
        actor,
        "event.created",
        activityMessage("admin.activityEventCreated", { name: created.name, date: { date: input.date }, time: { time: input.time } }),
      );
      return { result: created, replaced: [] };
    });
  } catch (error) {
    throw friendlyWriteError(error, input.name, t);
  }
  publish("events:changed", { action: "created", records: [event] });
  return event;
}

/** Changes an event's details; a new poster replaces the old one, no poster keeps it. */
export async function updateEvent(id: string, input: EventChanges, actor: AdminActor, t: Translate): Promise<EventListItem> {
  const poster = input.poster ? await uploadImage(input.poster, "event-posters") : null;
  let event: EventListItem;
  try {
    event = await commitFileChange(poster, async (tx, file) => {
      const previous = await tx.event.findUnique({ where: { id }, select: eventSelect });
      if (!previous) throw new UploadError(t("events.gone"));
      const updated = await tx.event.update({
        where: { id },
        data: { name: input.name, date: new Date(`${input.date}T00:00:00Z`), time: input.time, ...(file ? { posterId: file.id } : {}) },
        select: eventSelect,
      });
      await logActivity(
        tx,
        actor,
        "event.updated",
        activityMessage(file ? "admin.activityEventUpdatedPoster" : "admin.activityEventUpdated", { name: updated.name }),
      );
      return { result: updated, replaced: file ? [previous.poster] : [] };
    });
  } catch (error) {
    throw friendlyWriteError(error, input.name, t);
  }
  publish("events:changed", { action: "updated", records: [event] });
  return event;
}

export async function deleteEvent(id: string, actor: AdminActor, t: Translate): Promise<void> {
  const event = await commitFileChange(null, async (tx) => {
    const removed = await tx.event.findUnique({ where: { id }, select: eventSelect });
    if (!removed) throw new UploadError(t("events.gone"));
    await tx.event.delete({ where: { id } });
    await logActivity(tx, actor, "event.deleted", activityMessage("admin.activityEventDeleted", { name: removed.name }));
    return { result: removed, replaced: [removed.poster] };
  });
  publish("events:changed", { action: "deleted", records: [{ id: event.id, name: event.name }] });
}
