import { Prisma } from "~/generated/prisma/client";
import { db } from "~/services/db.server";
import { publish } from "~/services/realtime.server";
import { UploadError } from "~/services/uploads.server";
import { logActivity, SYSTEM_ACTOR, type AdminActor } from "./activity.server";
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

/** The spec's message when anything is missing from the event form. */
export const EVENT_INCOMPLETE = "Lengkapi semua data sebelum mengunggah.";
export const EVENT_UPLOADED = "Event berhasil diunggah!";

/**
 * Checks the event form: poster (when adding), name, date and time are all
 * needed; then the date and time must be real ones.
 */
export function validateEvent(
  values: { name: string; date: string; time: string },
  options: { hasPoster: boolean; editing: boolean },
): { ok: true; value: Omit<NewEvent, "poster"> } | { ok: false; error: string; errors: Record<string, string> } {
  const name = values.name.trim().replace(/\s+/g, " ");
  const date = values.date.trim();
  const time = values.time.trim();
  // The spec's one alert stays the form's message; each missing field is marked as well.
  const missing: Record<string, string> = {};
  if (!options.editing && !options.hasPoster) missing.poster = "Choose a poster image.";
  if (!name) missing.name = "Enter the event's name.";
  if (!date) missing.date = "Choose the date.";
  if (!time) missing.time = "Choose the time.";
  if (Object.keys(missing).length > 0) return { ok: false, error: EVENT_INCOMPLETE, errors: missing };
  const refuse = (field: string, error: string) => ({ ok: false as const, error, errors: { [field]: error } });
  if (name.length > 120) return refuse("name", "The event name is too long (at most 120 characters).");
  const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : null;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) {
    return refuse("date", "The date must be a real date (YYYY-MM-DD).");
  }
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) return refuse("time", "The time must be a time of day (HH:MM).");
  return { ok: true, value: { name, date, time } };
}

function friendlyWriteError(error: unknown, name: string): unknown {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
    return new UploadError(`An event named "${name}" already exists; choose another name.`);
  }
  return error;
}

/** Stores the poster, then the event; publishes `events:changed`. Nothing is kept if any step fails. */
export async function createEvent(input: NewEvent, actor: AdminActor = SYSTEM_ACTOR): Promise<EventListItem> {
  const poster = await uploadImage(input.poster, "event-posters");
  let event: EventListItem;
  try {
    event = await commitFileChange(poster, async (tx, file) => {
      const created = await tx.event.create({
        data: { name: input.name, date: new Date(`${input.date}T00:00:00Z`), time: input.time, posterId: file!.id },
        select: eventSelect,
      });
      await logActivity(tx, actor, "event.created", `Uploaded event "${created.name}" (${input.date} ${input.time})`);
      return { result: created, replaced: [] };
    });
  } catch (error) {
    throw friendlyWriteError(error, input.name);
  }
  publish("events:changed", { action: "created", records: [event] });
  return event;
}

/** Changes an event's details; a new poster replaces the old one, no poster keeps it. */
export async function updateEvent(id: string, input: EventChanges, actor: AdminActor): Promise<EventListItem> {
  const poster = input.poster ? await uploadImage(input.poster, "event-posters") : null;
  let event: EventListItem;
  try {
    event = await commitFileChange(poster, async (tx, file) => {
      const previous = await tx.event.findUnique({ where: { id }, select: eventSelect });
      if (!previous) throw new UploadError("That event no longer exists.");
      const updated = await tx.event.update({
        where: { id },
        data: { name: input.name, date: new Date(`${input.date}T00:00:00Z`), time: input.time, ...(file ? { posterId: file.id } : {}) },
        select: eventSelect,
      });
      await logActivity(tx, actor, "event.updated", `Edited event "${updated.name}"${file ? " (new poster)" : ""}`);
      return { result: updated, replaced: file ? [previous.poster] : [] };
    });
  } catch (error) {
    throw friendlyWriteError(error, input.name);
  }
  publish("events:changed", { action: "updated", records: [event] });
  return event;
}

export async function deleteEvent(id: string, actor: AdminActor = SYSTEM_ACTOR): Promise<void> {
  const event = await commitFileChange(null, async (tx) => {
    const removed = await tx.event.findUnique({ where: { id }, select: eventSelect });
    if (!removed) throw new UploadError("That event no longer exists.");
    await tx.event.delete({ where: { id } });
    await logActivity(tx, actor, "event.deleted", `Deleted event "${removed.name}"`);
    return { result: removed, replaced: [removed.poster] };
  });
  publish("events:changed", { action: "deleted", records: [{ id: event.id, name: event.name }] });
}
